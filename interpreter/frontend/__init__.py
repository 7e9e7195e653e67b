"""Stages 1-4 of the pipeline: files -> plain data with positions -> checked data -> model.

`yaml_source` reads one YAML file safely into plain data, `source_map` remembers where
every value was written, `includes` follows a ruleset's `include:` list, `json_source`
reads JSON the same way, `validate` checks it against the schemas, `model` builds the
frozen model. Nothing here compiles or runs effect code.
"""
