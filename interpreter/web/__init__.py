"""`grimoire serve`: a web table for playtests (room: the game and its seats; app: the ASGI routes;
replay: a game step by step; cards: card faces; commands: the CLI). Its dependencies (starlette, uvicorn, websockets) are core ones."""
