"""Headings (`h_1` ... `h_N`): lines that stand out by their type, then levelled.

Levels come from DCR's numbering rules where headings are numbered, and from their
typography where not.  Bold is told by the font's weight (`Word.bold`).

A line is a heading candidate when:

- it has space above it, or opens its column (`heading_min_space_em`), or is set much
  larger than the line right above it (`heading_outgrow_ratio`);
- it is set in bold, not clearly smaller than the body (`heading_min_bold_size_ratio`),
  in a clearly larger font (`heading_min_size_ratio`), or in capitals;
- it has few words (`heading_max_words`) and reads as one phrase: no label and its
  value, caption, quoted text or figure in bold leading a sentence.

The lines below it in the same style and font belong to it (at most five; up to the
first short one when a paragraph in the style follows).  A bold lead running into its
paragraph, a byline, a kicker, a date alone, and the lines of the document's title
block are no headings; a chapter's number line in the body's font (`CAPÍTULO II`) is
one, with its centred title, when its numbers ascend.

Levels:

- Numbered candidates are levelled by the rule engine (`heading_rules_file`): the
  first rule whose pattern matches the line is its rule.
- The rules met so far form a hierarchy, searched bottom-up: a rule already in it gives
  the heading that rule's depth (when its number follows the rule's previous one) and
  closes the rules below; a new rule (opening with a start value) goes one deeper.
- A numbered rule counts only when its headings stand on enough pages
  (`heading_min_pages`).
- Unnumbered candidates take the level of the numbered headings of their style, or
  their style's rank over the whole document (`_style_levels`); display type shares
  one level (`heading_display_size_ratio`).
- A style on too few pages takes the next larger style's level
  (`heading_style_min_pages`); a title's style (`heading_style_min_headings`) or an
  announcement's, every heading three lines or more (`ANNOUNCEMENT_MIN_LINES`),
  opens no level.
- Headings deeper than `heading_max_level` are typed body.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from itertools import pairwise
from pathlib import Path

from ..config import LinetypesConfig
from ..geometry.words import split_at_gaps
from ..model import Document, LineType, untagged
from ..model.captions import CAPTION_LABEL, is_caption, panel_letters
from .lines import (
    Key,
    Style,
    Typed,
    TypedLine,
    all_bold,
    body_lines,
    closes_sentence,
    column_of,
    column_right,
    log,
    retyped,
    style_of,
)
from .lists import marker
from .rules import DEFAULT_RULES, HeadingRule, load_rules
from .sequence import is_start, is_successor
from .tables import heads_row
from .toc import section_number

__all__ = ["ANNOUNCEMENT_MIN_LINES", "body_size", "heading_candidates", "heading_lines",
           "size_counts", "type_headings"]


@dataclass(slots=True)
class _Open:
    """A rule in the hierarchy: its last number and its first heading's left edge."""

    rule: HeadingRule
    value: str
    x0: float


def size_counts(lines: Sequence[TypedLine]) -> Counter[float]:
    """How many characters of the body ``lines`` are set in each font size (to the
    half point), sizes in order of first use."""
    exact: dict[float, int] = {}  # by the size as set: few distinct, rounded once each
    for item in lines:
        for word in item.line.words:
            exact[word.size] = exact.get(word.size, 0) + len(word.text)
    sizes: Counter[float] = Counter()
    for size, count in exact.items():
        sizes[round(size * 2) / 2] += count
    return sizes


def body_size(counts: Iterable[Counter[float]]) -> float:
    """The font size most characters are set in, from the `size_counts` of each
    page in order (a tie goes to the size used first)."""
    sizes: Counter[float] = Counter()
    for page in counts:
        sizes.update(page)
    return sizes.most_common(1)[0][0] if sizes else 0.0


ANNOUNCEMENT_MIN_LINES = 3
"""Fewest lines in every heading of a style that make it an announcement's (a notice
set large and bold saying when and where a meeting is held), which opens no level, so
the section heads under it keep theirs.  Not a parameter: no labelled page of the
corpus changes with it switched off."""

_TOLERANCE_X = 0.05
"""Headings of one numbered rule's level start within this share of the page width of
each other's left edge.  Not a parameter: half or twice it levels the corpus's
headings alike."""

_MAX_WRAPPED = 5
"""A heading wraps over at most this many lines."""
_MIN_LETTERS = 3
"""A heading has at least this many letters (a large symbol in a figure has not)."""
_UNREAD = re.compile(r"\(cid:\d+\)")
"""A glyph the text layer gives no text for, as pdfminer names it."""


def _legible(text: str) -> bool:
    """Whether a line reads as words: at least ``_MIN_LETTERS`` letters outside its
    unread glyphs, and more of them than unread glyphs."""
    unread = len(_UNREAD.findall(text))
    letters = sum(c.isalpha() for c in _UNREAD.sub("", text))
    return letters >= _MIN_LETTERS and letters > unread


_LEADER = re.compile(r"(?:\. ?){4,}|…")
"""A dot leader: the line is a contents entry or a row of a price list, no heading."""
_ADDRESS = re.compile(r"@|^(?:https?://|www\.)|\.(?:com|org|net|edu|gov)/?$", re.IGNORECASE)
"""A word that is a web or mail address."""
_QUOTED = re.compile(r"^[\"“«„].*[\"”»][.,!?]?$")
"""A line in quotation marks (a pull quote)."""
_QUOTE_MARKS = "\"“”«»„"
"""Quotation marks, opening and closing as the languages layoutkit reads set them."""
_FIELD = re.compile(r":\s+[\d.,%\s]*\d[\d.,%\s]*$")
"""A field's label and its figure after a colon (``TOTAL TURNOUT: 81.96%``)."""
_RELATION = re.compile(r"[\w)\]]\s*(?:[=≈≠≤≥≡≅≃∝]|==|!=|<=|>=|:=)\s*[\w(\[−-]")
"""A relation between two operands (``E = P · T (8)``, ``Out(0) <= In(27);``,
``F=1.0MHz``)."""
_DIFFERENCE = re.compile(r"\w\s−\s\w")
"""A difference set as mathematics, with the minus sign (``CPIbase − CPIimproved``)."""
_MAX_FORMULA_WORDS = 1
"""Words of prose (three letters or more, in lower case or capitalised) a line with a
relation holds at most to be a formula: 'Results for k = 5', 'Patients aged ≥65
years' are headings."""


def _formula(text: str) -> bool:
    """Whether a line reading ``text`` is a display equation or a line of code, set
    apart as a heading is but none: it holds a difference with the minus sign
    (`_DIFFERENCE`), or a relation (`_RELATION`) among at most `_MAX_FORMULA_WORDS`
    words of prose."""
    return _DIFFERENCE.search(text) is not None or (
        _RELATION.search(text) is not None and sum(
            1 for word in text.split() if len(word) > 2 and word.isalpha()
            and (word.islower() or word.istitle())) <= _MAX_FORMULA_WORDS)


_MONTH_NAMES = """
january february march april may june july august september october november december
jan feb mar apr jun jul aug sep sept oct nov dec
janvier février mars avril mai juin juillet août septembre octobre novembre décembre
januar februar märz juni juli oktober dezember
enero febrero marzo abril mayo junio julio agosto septiembre setiembre octubre noviembre
diciembre gennaio febbraio aprile maggio giugno luglio settembre ottobre dicembre
janeiro fevereiro março maio junho julho setembro outubro novembro dezembro
januari februari maart mei augustus
"""
_MONTHS = frozenset(_MONTH_NAMES.split())
"""Month names (and their short forms) of the languages layoutkit reads."""
_WEEKDAY_NAMES = """
monday tuesday wednesday thursday friday saturday sunday mon tue tues wed thu thur thurs fri
sat sun lundi mardi mercredi jeudi vendredi samedi dimanche montag dienstag mittwoch
donnerstag freitag samstag sonntag lunes martes miércoles jueves viernes sábado domingo
lunedì martedì mercoledì giovedì venerdì sabato domenica segunda terça quarta quinta sexta
maandag dinsdag woensdag donderdag vrijdag zaterdag zondag
"""
_WEEKDAYS = frozenset(_WEEKDAY_NAMES.split())
"""Weekday names (and their short forms) of the same languages."""
_DATE_WORD = re.compile(r"\d{1,4}(?:st|nd|rd|th|er|º|°)?|st|nd|rd|th|er|[-–—/]|to|and|de|"
                        r"del|du|au|al|bis|und|et|y|e|a|à|tot", re.IGNORECASE)
"""A word of a date besides its month and weekday names: a day (its ordinal's ending
set apart too: ``24 th``), a year, a dash or a word joining two dates (``August 3 -
August 9``, ``du 3 au 9 août``)."""


def _date_alone(words: Sequence[str]) -> bool:
    """Whether a line is a date (or a span of dates) and nothing else: ``June 7, 2014``,
    ``August 3 - August 9, 2014``, ``Mercredi 5 mai 2021``.  A date tells when, not
    what a section is about: a reader takes it as no heading."""
    names = 0
    for word in words:
        bare = word.strip(".,;:()").casefold()
        if bare in _MONTHS or bare in _WEEKDAYS:
            names += 1
        elif bare and not _DATE_WORD.fullmatch(bare):
            return False
    return names > 0 and any(c.isdigit() for word in words for c in word)


def _one_phrase(item: TypedLine, config: LinetypesConfig) -> bool:
    """Whether a line reads as one phrase, as a heading does: not a contents entry or a
    price list's row (a dot leader), a web or mail address, a quotation (or quoted text
    opening on it: an amendment's inserted words), a caption (`is_caption`) or what
    labels a figure (`_labels_figure`), a field's label and figure (`_FIELD`), a formula
    or code (`_formula`), a date alone (`_date_alone`), a value set apart as a cell
    (`_cells`) nor a bold lead (`_bold_lead`)."""
    text = item.line.text
    return not (_LEADER.search(text) or _QUOTED.match(text) or _opens_quote(text)
                or is_caption(text) or _labels_figure(item.words)
                or _FIELD.search(text) or _formula(text) or _date_alone(item.words)
                or any(_ADDRESS.search(word) for word in item.words)
                or _cells(item, config) or _bold_lead(item, config) or _figure(item.words))


_HEADING_NAMES = frozenset(("exhibit", "chart", "plate", "scheme"))
"""Names of what a figure shows that head a part of their own as often (a court
filing's 'EXHIBIT 1'): alone on a line, no figure's label."""


def _labels_figure(words: Sequence[str]) -> bool:
    """Whether a line only labels a figure: a caption's label alone, its legend on the
    lines under it (``Рис. 1``, ``Table 3``: `CAPTION_LABEL`), or the letters of a
    figure's panels in their order (``(a) (b) (c)``, ``a b c``)."""
    label = CAPTION_LABEL.fullmatch(" ".join(words).rstrip(".:"))
    if label is not None:
        return label[1].casefold() not in _HEADING_NAMES
    return panel_letters(words)


def _sentence_break(run: Sequence[TypedLine]) -> bool:
    """Whether the lines of a heading's ``run`` end one sentence and start another:
    a word in lower case closed by ``.``, ``!`` or ``?`` and a capital after it
    (``... morning snack. The center ...``).  A heading is one phrase; a paragraph set
    as large (a box's text under its title) runs on from sentence to sentence.  An
    abbreviation (``No. 5``, ``Inc. Annual``, ``U.S. Army``) is no lower-case word."""
    words = [word for item in run for word in item.words]
    return any(len(a) > 2 and a[:-1].isalpha() and a[:-1].islower() and a[-1] in ".!?"
               and b[:1].isupper() for a, b in pairwise(words))


_TRAILING_COMMAS = (",", "،", "，", "、")
"""Commas (Latin, Arabic, full-width, ideographic) a line may end with."""


def _trails_off(item: TypedLine) -> bool:
    """Whether a heading's last line ends with a comma: a phrase running on (a
    salutation, ``Cari lettori,``; keywords, a list's line), where a heading ends its
    own."""
    return item.line.text.rstrip().endswith(_TRAILING_COMMAS)


def _figure(words: Sequence[str]) -> bool:
    """Whether a line is a figure and its unit: a number then words in lower case
    (``26 million``, ``$3.3 billion``), an infographic's key figure, where a numbered
    heading's title is capitalised (``2 Methods``)."""
    return (len(words) > 1 and _AMOUNT.fullmatch(words[0]) is not None
            and all(word[0].islower() for word in words[1:]))


_AMOUNT = re.compile(r"[$€£¥]?\d[\d.,]*[%+]?")
"""A number as an amount is written: ``26``, ``$3.3``, ``1,250+``, ``90%``."""


def _bold_lead(item: TypedLine, config: LinetypesConfig) -> bool:
    """Whether a line opens in bold and goes on in a regular weight: a figure or a
    term in bold leading its sentence (``1 MW of electricity can power ...``), where a
    heading is set in one weight (a chapter's number set apart beside its title, past
    a gap of ``table_min_gap_em``, is no word of its phrase)."""
    phrase = split_at_gaps(item.kept_words, config.table_min_gap_em)[0]
    return phrase[0].bold and not all_bold(phrase)


def _opens_quote(text: str) -> bool:
    """Whether a line opens a quotation it does not close: quoted text running on (a
    bill's inserted chapter, ``"Chapter 4: ...``), not a heading of the document."""
    return text[:1] in _QUOTE_MARKS and not any(c in _QUOTE_MARKS for c in text[1:])


def _cells(item: TypedLine, config: LinetypesConfig) -> bool:
    """Whether a line sets a value apart as a table's cell (past a gap of
    ``table_min_gap_em``): its last piece holds a figure, not a lone number (a
    chapter's number or a footnote's mark set apart after a title): a label and its
    value (``Current price    62p``), figures side by side (``85,508 MW    85,116 MW``)."""
    pieces = split_at_gaps(item.kept_words, config.table_min_gap_em)
    last = pieces[-1]
    return len(pieces) > 1 and any(c.isdigit() for word in last for c in word.text) and not (
        len(last) == 1 and _LONE_NUMBER.fullmatch(last[0].text))


_LONE_NUMBER = re.compile(r"\(?\d{1,3}\)?\.?")
"""A number alone: ``1``, ``(1)``, ``12.``."""


def heading_candidates(lines: Sequence[TypedLine], size: float,
                       config: LinetypesConfig) -> list[TypedLine]:
    """The body ``lines`` that stand out as headings when the body is set in ``size``
    (see `_candidates`).  Only lines of one column are compared, so a page's
    lines give the same candidates alone as among the whole document's; on the
    document's first page, its title block's lines are none (`_title_block`),
    nor the lines that wrap from them."""
    found = _candidates(lines, size, config)
    block = _title_block(lines, set(found), size, config)
    leading = _column_leading(lines)
    for k in sorted(found):  # a wrapped line goes with the line it wraps from
        if k - 1 in block and _wraps(lines, k, config.heading_min_space_em, size, leading):
            block.add(k)
    return [lines[k] for k in found if k not in block]


def _title_block(lines: Sequence[TypedLine], found: set[int], body: float,
                 config: LinetypesConfig) -> set[int]:
    """The candidates (indexes in ``found``) that belong to the document's title, not
    to its headings: on its first page, the title is the first line in the page's
    largest size when that stands out (``heading_min_size_ratio``); the candidates
    right above it (a kicker: ``RESEARCH ARTICLE``) and right under it (its authors,
    affiliations, a date line), in its band and not in its style, up to the first
    that text at the body's size follows or a bold line whose section's number the
    next line's goes on from (`_opens_numbering`: the text's first heading), are the
    title's.  A line that is no candidate but set larger than the body (a subtitle
    running on from the title) does not end the block: the candidates under it at the
    body's size (a date line) are the title's too, a larger one (a section's name
    stacked under a nameplate) ends it."""
    first = [k for k, item in enumerate(lines) if item.key[0] == 0]
    if not first:
        return set()
    top = max(lines[k].line.size for k in first)
    if top < config.heading_min_size_ratio * body:
        return set()
    title = next(k for k in first if lines[k].line.size == top)
    style, band = style_of(lines[title]), lines[title].line.band
    larger = config.heading_min_size_ratio * body

    def joins(k: int, step: int) -> bool:
        """Whether line ``k`` of the block stands right next to its line ``k - step``,
        and is no bold line opening with a section's number (the text's first
        heading)."""
        near = lines[k - step]
        return (0 <= k < len(lines) and style_of(lines[k]) != style
                and not (style_of(lines[k])[1] and _opens_numbering(lines, k))
                and (k in found or lines[k].line.size >= larger)
                and lines[k].line.band == band
                and lines[k].key == (near.key[0], near.key[1] + step))

    end = title
    while (end + 1 < len(lines) and style_of(lines[end + 1]) == style
           and lines[end + 1].key == (0, lines[end].key[1] + 1)):
        end += 1
    block = set()
    k = title - 1
    while joins(k, -1):
        block.add(k)
        k -= 1
    k, subtitle = end + 1, False
    left, right = _column_left(lines), column_right(lines)
    while joins(k, 1) and not _text_follows(lines, k, found, body, config, (left, right)):
        if k not in found:
            subtitle = True
        elif subtitle and lines[k].line.size >= larger:
            break
        else:
            block.add(k)
        k += 1
    return block


def _opens_numbering(lines: Sequence[TypedLine], k: int) -> bool:
    """Whether line ``k`` opens with a section's number (`section_number`) that the
    next line's goes on from: its first subsection's (``1`` over ``1.1``) or the next
    section's (``1.1`` over ``1.2``); a date or a figure opening a line ('12 May
    2021', '100 Years of …') is followed by none."""
    if k + 1 >= len(lines):
        return False
    number, after = section_number(lines[k].words), section_number(lines[k + 1].words)
    return number is not None and after is not None and (
        after == (*number, 1) or (len(after) == len(number) and after[:-1] == number[:-1]
                                   and after[-1] == number[-1] + 1))


def _text_follows(lines: Sequence[TypedLine], k: int, found: set[int], body: float,
                  config: LinetypesConfig,
                  edges: tuple[Mapping[tuple[int, int, int], float],
                               Mapping[tuple[int, int, int], float]]) -> bool:
    """Whether the line after line ``k`` in reading order is text at the body's size
    (a body line, not a candidate, not clearly larger than the ``body`` size) that is
    not centred in its column (`_centred`, its columns' left and right ``edges``
    given): a paragraph, not an affiliation centred under its authors."""
    return (k + 1 < len(lines) and k + 1 not in found
            and lines[k + 1].key == (lines[k].key[0], lines[k].key[1] + 1)
            and lines[k + 1].line.size < config.heading_min_size_ratio * body
            and not _centred(lines[k + 1], *edges))


def _candidates(lines: Sequence[TypedLine], size: float, config: LinetypesConfig) -> list[int]:
    """Indexes of the lines that stand out as headings: a line with space above it (it does
    not go on from the line above, see `_continues`: one opening its column goes on only
    from a line in its style whose sentence it runs on in lower case; or it outgrows it,
    `_outgrows`) in a style that stands out from the body (`_stands_out`; or bold,
    opening with a section's number: `_SECTION`; or in capitals, `_in_capitals`) and
    reading as one phrase (`_one_phrase`), not a bulleted item nor a bold lead running
    into its paragraph (`_runs_in`), labelling smaller text (`_labels`) or a kicker over
    a larger line (`_kicker`), with the lines below it that go on from it in its style
    (a wrapped heading; in capitals too, for one that stands out by them), none of them
    a value set apart as a cell (`_cells`), at most ``_MAX_WRAPPED`` lines of at most
    ``heading_max_words`` words, the first legible (`_legible`), the last ending with no
    comma (`_trails_off`: lines so ending under the first are left out of its run, which
    is judged without them).  A run in the style too long for that (a title set in bold
    under its number, as gazettes set ordinances) keeps its lines up to the first that
    stops short of the column's right edge: a heading ends its own line."""
    right, leading = column_right(lines), _column_leading(lines)
    left = _column_left(lines)
    space = config.heading_min_space_em
    found: list[int] = []
    for k, item in enumerate(lines):
        if _chapter_number(item.words) is not None and _centred(item, left, right):
            found.extend(_chapter_lines(lines, k, left, right, config))
            continue
        if _continues(lines, k, space, size, leading) and not _outgrows(lines, k, size, config):
            continue
        style = style_of(item)
        numbered = style[1] and _SECTION.match(" ".join(item.words)) is not None
        capitals_only = not (_stands_out(style, size, config) or numbered)
        if (capitals_only and not _in_capitals(item, size, config)) or not _legible(
                item.line.text) or _bulleted(item) or not _one_phrase(item, config) \
                or _table_head(lines, k, config):
            continue
        run = [k]
        while (run[-1] + 1 < len(lines) and _wraps(lines, run[-1] + 1, space, size, leading)
               and (not capitals_only or _in_capitals(lines[run[-1] + 1], size, config))):
            run.append(run[-1] + 1)
        while len(run) > 1 and _trails_off(lines[run[-1]]):
            run.pop()  # a salutation set in the heading's style under it
        if any(_cells(lines[j], config) for j in run[1:]):
            continue
        for lines_kept in (run, _up_to_short_line(lines, run, right[column_of(item)] - size)):
            if len(lines_kept) <= _MAX_WRAPPED and all(
                    len(lines[j].words) <= config.heading_max_words for j in lines_kept):
                if not (_runs_in(lines, lines_kept[-1], space, size, leading)
                        or _sentence_break([lines[j] for j in lines_kept])
                        or _trails_off(lines[lines_kept[-1]])
                        or _labels(lines, lines_kept[-1], size)
                        or _kicker(lines, lines_kept[-1], space, size, leading, config)):
                    found.extend(lines_kept)
                break
    return found


def _table_head(lines: Sequence[TypedLine], k: int, config: LinetypesConfig) -> bool:
    """Whether line ``k`` heads the columns of a table whose first row is the next
    line of its page (`heads_row`; a table's head may stand in a band of its own)."""
    return (k + 1 < len(lines) and lines[k + 1].key[0] == lines[k].key[0]
            and heads_row(lines[k].line, lines[k + 1].line, config))


def _labels(lines: Sequence[TypedLine], k: int, body: float) -> bool:
    """Whether the bold line ``k``, smaller than the ``body`` size, labels smaller
    text under it in its column (a byline over its author's affiliation) rather than
    heading the body."""
    size, bold = style_of(lines[k])
    return (bold and size < body and k + 1 < len(lines)
            and column_of(lines[k + 1]) == column_of(lines[k])
            and style_of(lines[k + 1])[0] < size)


def _in_capitals(item: TypedLine, body: float, config: LinetypesConfig) -> bool:
    """Whether a line is set in capitals (every letter, ``_MIN_LETTERS`` at least) and
    not clearly smaller than the ``body`` (``heading_min_bold_size_ratio``): capitals
    set a heading off from the text as bold does (``3. RESULTS AND DISCUSSION``,
    ``QUORUM``)."""
    letters = [c for c in item.line.text if c.isalpha()]
    return (len(letters) >= _MIN_LETTERS and all(c.isupper() for c in letters)
            and item.line.size >= config.heading_min_bold_size_ratio * body)


def _kicker(lines: Sequence[TypedLine], k: int, space: float, body: float,
            leading: dict[tuple[int, int, int], float], config: LinetypesConfig) -> bool:
    """Whether line ``k`` stands right over a line that outgrows it (`_outgrows`),
    across some of its width: a kicker over its headline (``PICTURE OF THE WEEK``) or
    the lead-in of a figure's statement (``More than`` over ``26 million``), which the
    larger line heads; not a label beside a row of figures."""
    if k + 1 >= len(lines):
        return False
    above, below = lines[k].line.bbox, lines[k + 1].line.bbox
    return (min(above.x1, below.x1) > max(above.x0, below.x0)
            and _continues(lines, k + 1, space, body, leading)
            and _outgrows(lines, k + 1, body, config))


def _runs_in(lines: Sequence[TypedLine], k: int, space: float, body: float,
             leading: dict[tuple[int, int, int], float]) -> bool:
    """Whether the bold line ``k`` runs on into a paragraph: the line under it goes on
    from it and opens in its bold font, then leaves it (``O MINISTRO DE ESTADO ...
    DA`` over ``REPÚBLICA, no uso das suas atribuições``: a lead, not a heading)."""
    if k + 1 >= len(lines) or not style_of(lines[k])[1] or style_of(lines[k + 1])[1]:
        return False
    return (_continues(lines, k + 1, space, body, leading)
            and lines[k + 1].kept_words[0].font in {w.font for w in lines[k].kept_words})


_SECTION = re.compile(r"[^\W\d_]{2,12}\. (?:\d{1,3}|[IVXLC]{1,6})\.(?: |$)")
"""A numbered section's opening (``SEC. 2.``, ``Art. IV.``): a bold line that opens so
is a heading even set smaller than the body (a bill's section in small capitals)."""
_CHAPTER = re.compile(r"([^\W\d_]{3,}) ([IVXLC]{1,6}|\d{1,3})(?:er|º|°|\.)?")
"""A chapter's number line: a word and a Roman or Arabic number (``CAPÍTULO IV``,
``Seção II``, ``CHAPITRE 1er``, ``Part 3``)."""


def _chapter_number(words: Sequence[str]) -> tuple[str, str] | None:
    """The (word, number) of a chapter's number line (`_CHAPTER`), if the line
    is one: the word starts with a capital."""
    found = _CHAPTER.fullmatch(" ".join(words))
    return (found[1].casefold(), found[2]) if found and found[1][0].isupper() else None


def _centred(item: TypedLine, left: Mapping[tuple[int, int, int], float],
             right: Mapping[tuple[int, int, int], float]) -> bool:
    """Whether a line is centred in its column, short of both edges (as a chapter's
    number and title are): its margins on either side are over ``_CENTRED_EM`` of its
    size and differ by at most that."""
    key, em = column_of(item), _CENTRED_EM * item.line.size
    before, after = item.line.bbox.x0 - left[key], right[key] - item.line.bbox.x1
    return before > em and after > em and abs(before - after) <= em


_CENTRED_EM = 1.0
"""A centred line's margins exceed this many ems and differ by at most as much."""


def _chapter_lines(lines: Sequence[TypedLine], k: int, left: Mapping[tuple[int, int, int], float],
                   right: Mapping[tuple[int, int, int], float],
                   config: LinetypesConfig) -> list[int]:
    """A chapter's number line ``k`` and the centred lines in its style right below it
    (its title), at most ``_MAX_WRAPPED`` lines of ``heading_max_words`` words in all:
    set in the body's font, such a heading stands out by its number and its place
    alone (its number is checked against the document's, `_chapters`)."""
    run = [k]
    while (len(run) < _MAX_WRAPPED and run[-1] + 1 < len(lines)
           and column_of(lines[run[-1] + 1]) == column_of(lines[k])
           and style_of(lines[run[-1] + 1]) == style_of(lines[k])
           and len(lines[run[-1] + 1].words) <= config.heading_max_words
           and _chapter_number(lines[run[-1] + 1].words) is None
           and _centred(lines[run[-1] + 1], left, right)):
        run.append(run[-1] + 1)
    return run


def _font(item: TypedLine) -> str:
    """The font most of a line's letters are set in (by its name without a subset
    tag: [`untagged`][layoutkit.model.untagged])."""
    counts: Counter[str] = Counter()
    for word in item.kept_words:
        counts[untagged(word.font)] += len(word.text)
    return counts.most_common(1)[0][0]


def _stands_out(style: Style, body: float, config: LinetypesConfig) -> bool:
    """Whether a line in ``style`` stands out from a body set in ``body`` points: bold
    and not clearly smaller (``heading_min_bold_size_ratio``), or clearly larger
    (``heading_min_size_ratio``)."""
    size, bold = style
    return size >= config.heading_min_size_ratio * body or (
        bold and size >= config.heading_min_bold_size_ratio * body)


def _up_to_short_line(lines: Sequence[TypedLine], run: list[int], full: float) -> list[int]:
    """The lines of ``run`` up to the first that ends before ``full`` when a line after
    it reaches ``full`` (a heading above a paragraph in its style); else all of
    ``run`` (a block of short lines, centred or ragged, is one piece)."""
    ends = [lines[j].line.bbox.x1 >= full for j in run]
    short = next((n for n, reaches in enumerate(ends) if not reaches), len(run))
    return run[:short + 1] if any(ends[short + 1:]) else run


def _wraps(lines: Sequence[TypedLine], k: int, space_em: float, body: float,
           leading: dict[tuple[int, int, int], float]) -> bool:
    """Whether line ``k`` wraps from the line above it as a heading's next line does:
    in its style and font, going on from it (`_continues`)."""
    return (style_of(lines[k]) == style_of(lines[k - 1]) and _font(lines[k]) == _font(lines[k - 1])
            and _continues(lines, k, space_em, body, leading))


def _continues(lines: Sequence[TypedLine], k: int, space_em: float, body: float,
               leading: dict[tuple[int, int, int], float]) -> bool:
    """Whether line ``k`` goes on from the line above it in its column: the gap
    between them is under ``space_em`` of line ``k``'s size, or the two share a style
    and the gap is under the column's leading plus ``space_em`` of the body size (a
    paragraph set in the heading's style, as gazettes set an ordinance's title).  A
    line opening its column goes on from the line before it in reading order when the
    two share a style and a page, that one leaves its sentence open and this one
    opens in lower case: a quotation's last line, read in the column under its
    first."""
    if not k:
        return False
    if column_of(lines[k - 1]) != column_of(lines[k]):
        before, line = lines[k - 1].line, lines[k].line
        return (lines[k - 1].key[0] == lines[k].key[0]  # a page alone reads alike
                and style_of(lines[k - 1]) == style_of(lines[k])
                and not closes_sentence(before.text) and line.text[:1].islower())
    gap = _gap(lines, k)
    return gap < space_em * lines[k].line.size or (
        style_of(lines[k - 1]) == style_of(lines[k])
        and gap < leading[column_of(lines[k])] + space_em * body)


def _outgrows(lines: Sequence[TypedLine], k: int, body: float, config: LinetypesConfig
              ) -> bool:
    """Whether line ``k`` is set at least ``heading_outgrow_ratio`` times the size of
    the line above it in its column, a line that stands out from the ``body`` itself (a
    kicker, ``PICTURE OF THE WEEK``): however close under it, the headline starts a
    heading of its own rather than going on from its kicker."""
    if not k or column_of(lines[k - 1]) != column_of(lines[k]):
        return False
    above = style_of(lines[k - 1])
    return (_stands_out(above, body, config)
            and lines[k].line.size >= config.heading_outgrow_ratio * lines[k - 1].line.size)


def _gap(lines: Sequence[TypedLine], k: int) -> float:
    """The space between line ``k`` and the line above it."""
    return lines[k].line.bbox.top - lines[k - 1].line.bbox.bottom


def _column_leading(lines: Sequence[TypedLine]) -> dict[tuple[int, int, int], float]:
    """The leading of each column: its most frequent gap between lines, to the half
    point (0 at least: lines that overlap, as a drop cap does, set none)."""
    gaps: dict[tuple[int, int, int], Counter[float]] = {}
    for k in range(1, len(lines)):
        key = column_of(lines[k])
        if column_of(lines[k - 1]) == key:
            gaps.setdefault(key, Counter())[round(max(0.0, _gap(lines, k)) * 2) / 2] += 1
    return {key: counts.most_common(1)[0][0] for key, counts in gaps.items()}


def _column_left(lines: Sequence[TypedLine]) -> dict[tuple[int, int, int], float]:
    """The left edge of each column: where its leftmost line starts."""
    left: dict[tuple[int, int, int], float] = {}
    for item in lines:
        key = column_of(item)
        left[key] = min(left.get(key, item.line.bbox.x0), item.line.bbox.x0)
    return left


def _bulleted(item: TypedLine) -> bool:
    """Whether a line opens a bulleted list item (bold or not, an item is no heading)."""
    found = marker(item.kept_words)
    return found is not None and found.bulleted


def _rule_levels(candidates: Sequence[TypedLine], rules: tuple[HeadingRule, ...],
                 config: LinetypesConfig, width: Mapping[int, float]) -> dict[int, tuple[int, str]]:
    """The level and rule name of each numbered candidate (by index) the rule engine
    accepts; ``width`` is the width of each page by index."""
    stack: list[_Open] = []
    levels: dict[int, tuple[int, str]] = {}
    for k, item in enumerate(candidates):
        for rule in rules:
            value = rule.matches(item.words)
            if value is not None:
                break
        else:
            continue
        tolerance = _TOLERANCE_X * width[item.key[0]]
        depth = next((d for d in range(len(stack) - 1, -1, -1) if stack[d].rule == rule), None)
        if depth is not None:
            entry = stack[depth]
            if not is_successor(rule.function_is_asc, entry.value, value) \
                    or abs(item.line.bbox.x0 - entry.x0) > tolerance:
                continue
            del stack[depth + 1:]
            entry.value = value
        elif is_start(rule.function_is_asc, value, rule.start_values):
            stack.append(_Open(rule, value, item.line.bbox.x0))
            depth = len(stack) - 1
        else:
            continue
        levels[k] = (depth + 1, rule.name)
    return levels


def type_headings(document: Document, config: LinetypesConfig) -> Document:
    """``document`` with its headings typed ``h_<level>`` (levels 1 to
    ``heading_max_level``); see the module docstring for how they are found."""
    lines = body_lines(document)
    size = body_size([size_counts(lines)])
    width = {p: page.width for p, page in enumerate(document.pages)}
    return retyped(document, heading_lines(heading_candidates(lines, size, config), width,
                                           size, config))


def heading_lines(candidates: Sequence[TypedLine], width: Mapping[int, float], body: float,
                  config: LinetypesConfig) -> dict[Key, Typed]:
    """The heading candidates of a whole document (in reading order) typed
    ``h_<level>``, levelled by the rules and by their typography across the pages
    (those levelled deeper than ``heading_max_level`` left out): a section numbered
    ``2.1`` that no rule levels (the rule seen on too few pages) is one level below
    the level typography gives the sections numbered ``2``.  ``width`` is the
    width of each page by index in the document, ``body`` the body's font size."""
    rules = load_rules(Path(config.heading_rules_file)) if config.heading_rules_file \
        else DEFAULT_RULES
    kept, dropped = _chapters(candidates, body, config)
    candidates = [item for k, item in enumerate(candidates) if k not in dropped]
    chapters = {k for k, item in enumerate(candidates) if item.key in kept}
    while True:
        levels = _rule_levels(candidates, rules, config, width)
        pages: dict[str, set[int]] = {}
        for k, (_, name) in levels.items():
            pages.setdefault(name, set()).add(candidates[k].key[0])
        few = {name for name, seen in pages.items() if len(seen) < config.heading_min_pages}
        if not few:
            break
        rules = tuple(rule for rule in rules if rule.name not in few)
    by_style = _style_levels(candidates, levels, body, config)
    depths = {k: len(found[1].split(".")) for k, item in enumerate(candidates)
              if k not in levels and (found := _DECIMAL.fullmatch(item.words[0]))}
    top = Counter(by_style[style_of(candidates[k])] for k, depth in depths.items() if depth == 1)
    decisions: dict[Key, Typed] = {}
    for k, item in enumerate(candidates):
        level, why = levels.get(k, (0, ""))
        if not level and k in depths and top and depths[k] > 1:
            level, why = top.most_common(1)[0][0] + depths[k] - 1, "numbering depth"
        if not level:
            level, why = by_style[style_of(item)], "typography"
        if k in chapters:
            level, why = min(level, config.heading_max_level), "chapter number"
        if level > config.heading_max_level:
            continue
        log.info("page %d: heading level %d (%s, %.1f pt%s): %r", item.line.page_no, level,
                 why, item.line.size, ", bold" if style_of(item)[1] else "", item.line.text)
        decisions[item.key] = Typed(LineType.HEADING, level)
    return decisions


_DECIMAL = re.compile(r"(\d{1,2}(?:\.\d{1,2})*)\.?")
"""A section's number: ``2``, ``2.1``, ``2.1.3.``; its depth is its count of parts."""


def _chapters(candidates: Sequence[TypedLine], body: float, config: LinetypesConfig
              ) -> tuple[set[Key], set[int]]:
    """The chapter headings set in the body's font (`_chapter_lines`) whose number
    follows or goes on to another of their word's (``CAPÍTULO I``, ``CAPÍTULO II``):
    the keys of their lines, and the indexes of those of the others (a label with
    a number, ``VSS 2``), which are no headings."""
    numbered: dict[str, list[tuple[int, str]]] = {}
    owner: dict[int, int] = {}
    for k, item in enumerate(candidates):
        if _stands_out(style_of(item), body, config):
            continue
        found = _chapter_number(item.words)
        if found is not None:
            numbered.setdefault(found[0], []).append((k, found[1]))
            owner[k] = k
        elif k and k - 1 in owner and candidates[k - 1].key == (item.key[0], item.key[1] - 1):
            owner[k] = owner[k - 1]
    heads: set[int] = set()
    for entries in numbered.values():
        for (k, value), (j, after) in pairwise(entries):
            function = "string_integers" if value.isdigit() else "romans"
            if is_successor(function, value, after):
                heads |= {k, j}
    kept = {candidates[k].key for k, head in owner.items() if head in heads}
    return kept, {k for k, head in owner.items() if head not in heads}


def _style_levels(candidates: Sequence[TypedLine], levels: dict[int, tuple[int, str]],
                  body: float, config: LinetypesConfig) -> dict[Style, int]:
    """The level of each candidate style, the styles ranked over the whole document
    from the largest: the most frequent level of the numbered headings set in it;
    else a style opens a level one below the nearest larger style when it recurs
    (on at least ``heading_style_min_pages`` pages, the largest on fewer too) and
    heads a heading of a smaller style (one of its headings comes right before one
    of those), but for a title's: a style of fewer than
    ``heading_style_min_headings`` headings on the document's first page (a title,
    a nameplate, a cover's lines), unless a heading of a smaller style that is no
    title's stands right under one of them (a section's name over its
    sub-section's, as gazettes stack them).  A recurring style that heads none (a
    box's title, a kicker) is one level below the nearest larger style but pushes
    none below it; a style that opens no level takes the nearest larger style's (1
    for the largest) and pushes none below it.  Display styles (at least
    ``heading_display_size_ratio`` times the ``body`` size: headlines, set larger
    the more a story matters) share one level, opened when any of them recurs.  An
    announcement's style (`_announcement_styles`) opens no level either."""
    known: dict[Style, Counter[int]] = {}
    for k, (level, _) in levels.items():
        known.setdefault(style_of(candidates[k]), Counter())[level] += 1
    pages: dict[Style, set[int]] = {}
    for item in candidates:
        pages.setdefault(style_of(item), set()).add(item.key[0])
    headings = _headings_per_style(candidates)
    titles = {s for s in pages
              if headings[s] < config.heading_style_min_headings and 0 in pages[s]}
    announcements = _announcement_styles(candidates, ANNOUNCEMENT_MIN_LINES)
    stacked = {(style_of(above), style_of(below)) for above, below in pairwise(candidates)
               if _rank(style_of(below)) > _rank(style_of(above))
               and below.line.band == above.line.band
               and below.key == (above.key[0], above.key[1] + 1)}
    while over := {above for above, below in stacked if above in titles and below not in titles}:
        titles -= over

    def recurs(style: Style) -> bool:
        return len(pages[style]) >= config.heading_style_min_pages and style not in titles

    display = {s for s in pages if s[0] >= config.heading_display_size_ratio * body}
    display_recurs = any(recurs(s) for s in display)
    starts = _heading_starts(candidates)
    leads = {style_of(candidates[k]) for k, j in pairwise(starts)
             if _rank(style_of(candidates[j])) > _rank(style_of(candidates[k]))
             and style_of(candidates[j]) not in titles}
    result: dict[Style, int] = {}
    previous = display_level = 0
    for style in sorted(pages, key=_rank):
        counts = known.get(style)
        if counts:
            previous = counts.most_common(1)[0][0]
            result[style] = previous
        elif style in display and display_level:
            result[style] = display_level
        elif style not in announcements and (
                (display_recurs if style in display else recurs(style) and style in leads)
                or (not previous and style not in titles)):
            previous += 1
            result[style] = previous
            display_level = previous if style in display else display_level
        elif recurs(style):
            result[style] = previous + 1
        else:
            result[style] = max(previous, 1)
    return result


def _rank(style: Style) -> tuple[float, bool]:
    """The sort key of a style from the most prominent: larger, then bold."""
    return (-style[0], not style[1])


def _heading_starts(candidates: Sequence[TypedLine]) -> list[int]:
    """The indexes of the candidates that start a heading: one that goes on from the
    candidate before it (the next line of its page in its style, a wrapped heading)
    is the same heading."""
    return [k for k, item in enumerate(candidates)
            if not k or style_of(candidates[k - 1]) != style_of(item)
            or candidates[k - 1].key != (item.key[0], item.key[1] - 1)]


def _announcement_styles(candidates: Sequence[TypedLine], min_lines: int) -> set[Style]:
    """The styles whose every heading (`_heading_starts`) runs over at least
    ``min_lines`` lines: a notice's, not a section's (a heading is shorter than that)."""
    starts = _heading_starts(candidates)
    shortest: dict[Style, int] = {}
    for k, end in pairwise([*starts, len(candidates)]):
        style = style_of(candidates[k])
        shortest[style] = min(shortest.get(style, end - k), end - k)
    return {style for style, lines in shortest.items() if lines >= min_lines}


def _headings_per_style(candidates: Sequence[TypedLine]) -> Counter[Style]:
    """How many headings each style sets (`_heading_starts`)."""
    return Counter(style_of(candidates[k]) for k in _heading_starts(candidates))
