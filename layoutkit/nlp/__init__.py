"""Text for NLP, from a parsed document: paragraphs, languages, tokens and NLPTextDocument.

- `paragraphs`: paragraphs joined across columns and pages.
- `language`: the language of each page.
- `tokens`: spaCy tokens traceable to their page and line; spaCy is imported here alone.
- `nlptext`: the NLPTextDocument tree.
"""
