"""Text for NLP, from a parsed document: paragraphs joined across columns and
pages (`paragraphs`), the language of each page (`language`), spaCy
tokens traceable to their page and line ([`tokens`][layoutkit.nlp.tokens]) and the NLPTextDocument
tree ([`nlptext`][layoutkit.nlp.nlptext]).  spaCy is imported by [`tokens`][layoutkit.nlp.tokens]
alone."""
