"""Text for NLP, from a parsed document: paragraphs joined across columns and
pages (:mod:`.paragraphs`), the language of each page (:mod:`.language`), spaCy
tokens traceable to their page and line (:mod:`.tokens`) and the NLPTextDocument tree
(:mod:`.nlptext`).  spaCy is imported by :mod:`.tokens` alone."""
