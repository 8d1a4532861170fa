"""OCR, a glyph source for scanned pages and images.

- `scanned`: which pages need OCR, and their words read in place of their text layer.
- `image`: the page image made ready and read by tesseract.
- `lookalikes`: an OCR word's look-alike letters put back into the word's script.
- `quality`: the quality of what it read.
- `language`: the languages a page is read in.

OpenCV, Pillow and pytesseract are imported only where a page is read by OCR.
"""
