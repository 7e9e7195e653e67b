"""`grimoire serve`: a web table for playtests.

room: the game, its seats and tokens; app: the ASGI routes; replay: a game step by step;
cards: card faces; commands: the command line. starlette, uvicorn and websockets are core
dependencies, so the server works after the one install command of the README.
"""
