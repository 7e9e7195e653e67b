# Writes a 2 MB+ input.yaml (too big to commit); the harness runs this before loading.
from pathlib import Path

lines = ["kind: cards", "cards:"] + [f"  card_{i}: {{set: white, count: 1}}" for i in range(70_000)]
Path("input.yaml").write_text("\n".join(lines) + "\n", encoding="utf-8")
