"""House rules: a variant file merged onto a base ruleset (stage 2 of the pipeline).

`overlay` merges with provenance per value, `schema` checks a variant file, `checks` the
merged result against the base, `texts` and `text_check` a variant's own locale
entries, `variant_set` every variant of a folder alone and in pairs.
"""
