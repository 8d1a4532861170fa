"""OCR in the page's own language and script, and its quality judged in that language
(issue 24): run for real with tesseract on small pages (150 dpi) with exact truth,
a page set in another script (:mod:`fixtures.scanned_scripts`) and a crop of a French gazette
page whose text layer is the reference (:mod:`fixtures.scans`).
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from PIL import Image

import layoutkit
from benchmarks.ocr import similarity
from fixtures.scanned_scripts import SCRIPT_PAGES, render
from fixtures.scans import crop
from layoutkit.batch.actions import Job, run_job
from layoutkit.config import LayoutConfig
from layoutkit.errors import ConfigError
from layoutkit.model import visual_order
from layoutkit.outputs import document_json
from layoutkit.sources.ocr import language as ocr_language
from layoutkit.sources.ocr.image import Osd, ocr_words
from layoutkit.sources.ocr.language import Given, layer_language, tesseract_codes, user_languages
from layoutkit.sources.ocr.lookalikes import native_letters
from layoutkit.sources.ocr.quality import dictionary_share, word_lists

ROOT = Path(__file__).resolve().parent.parent
ALGERIE = ROOT / "fixtures" / "corpus" / "journal-officiel-algerie-2022-50.pdf"
BAYERN = ROOT / "fixtures" / "corpus" / "bayerischer-landtag-plenarprotokoll-17-140.pdf"
DPI = 150
COMMENTARIES = ROOT / "fixtures" / "scanned" / "commentaries"

GERMAN = ("Der Bayerische Landtag hat in seiner heutigen Sitzung das folgende Gesetz "
          "beschlossen, das hiermit bekannt gemacht wird. Die Staatsregierung wird "
          "ermächtigt, die zur Ausführung erforderlichen Verordnungen zu erlassen.")
FRENCH = ("Le ministre des finances, vu la loi relative à l'organisation des services "
          "publics et vu le décret portant nomination des membres du gouvernement, "
          "arrête les dispositions suivantes, qui seront publiées au journal officiel.")


def test_languages_are_given_as_tesseract_or_iso_codes() -> None:
    assert tesseract_codes("de+eng+deu") == ("deu", "eng")
    assert tesseract_codes("zh") == ("chi_sim",) and tesseract_codes("chi_tra") == ("chi_tra",)
    assert LayoutConfig().ocr.ocr_languages == "auto"
    assert LayoutConfig().replace(ocr_languages="de+fr").ocr.ocr_languages == "de+fr"
    with pytest.raises(ConfigError, match="'ocr_languages'"):
        LayoutConfig().replace(ocr_languages="German")


def test_a_language_without_its_pack_is_read_with_its_scripts_installed_model(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(ocr_language, "installed", lambda: frozenset({"osd", "eng", "rus"}))
    given = LayoutConfig().replace
    assert user_languages(LayoutConfig()) is None  # auto: the page's own
    assert user_languages(given(ocr_languages="ru")) == Given("rus")
    assert user_languages(given(ocr_languages="uk")) == Given("rus", "ukr")  # Cyrillic
    assert user_languages(given(ocr_languages="pt+ru")) == Given("eng+rus", "por")
    assert user_languages(given(ocr_languages="xyz")) == Given("", "xyz")  # the page's own


def page_of(lines: list[tuple[str, int, int]], mark: str | None = None) -> Image.Image:
    """A 150-dpi page of ``lines`` (text, left, top) in DejaVu Sans 34 px, and ``mark``
    (a speck, or a few figures) about its middle."""
    from PIL import ImageDraw, ImageFont

    image = Image.new("L", (1240, 1754), 255)
    draw = ImageDraw.Draw(image)
    font = ImageFont.truetype("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf", 34)
    for text, x, y in lines:
        draw.text((x, y), text, font=font, fill=0)
    if mark == "speck":
        draw.ellipse((300, 860, 306, 866), fill=0)
    elif mark is not None:
        draw.text((560, 850), mark, font=font, fill=0)
    return image


@pytest.mark.parametrize("middle", ["speck", "2018"])
def test_a_cover_in_capitals_with_a_blank_middle_is_read_in_its_own_script(
        middle: str) -> None:
    """A cover page in capitals, its middle blank but for a speck or a year, taken by the
    script detection for Cyrillic: the sample about the middle reads no letter in any
    model, so the whole page is read, and the Cyrillic model's confident look-alikes
    ('ТНЕ КОТАКУ') read into no Russian word, where English reads: the page is
    English."""
    from layoutkit.sources.ocr.image import Osd

    cover = [("THE ROTARY CLUB OF AYR BENEVOLENT FUND", 200, 320),
             ("RECEIPTS AND PAYMENTS ACCOUNT", 200, 390),
             ("FOR THE YEAR ENDED 30 JUNE 2018", 200, 460),
             ("CHARTERED ACCOUNTANTS", 420, 1500), ("TWENTY BARNS STREET", 420, 1560)]
    chosen = ocr_language.choose(page_of(cover, middle), 72 / DPI, DPI,
                                 Osd(0, 5.0, "Cyrillic"), LayoutConfig())
    assert chosen.languages == "eng"


def test_a_latin_page_in_a_language_without_a_list_stays_latin() -> None:
    """A page in a Latin-script language no installed word list knows (Swahili) reads
    confidently in the Latin model and into few listed words: the other scripts' models
    are asked, but their gibberish, however many of its scraps a large list holds, is
    less confident: the page stays in the Latin script."""
    swahili = ["Habari za asubuhi, karibu sana nyumbani kwetu leo.",
               "Watoto wanacheza uwanjani pamoja na marafiki zao.",
               "Mwalimu alifundisha somo la hesabu darasani jana.",
               "Tunapenda kusoma vitabu vingi wakati wa likizo."]
    image = page_of([(text, 120, 700 + 60 * k) for k, text in enumerate(swahili)])
    chosen = ocr_language.choose(image, 72 / DPI, DPI, None, LayoutConfig())
    assert ocr_language.BY_CODE[chosen.languages.split("+")[0]].system == "Latin"


def test_a_text_layer_gives_its_language_or_languages() -> None:
    config = LayoutConfig()
    assert layer_language(GERMAN.split(), config) == "deu"
    assert layer_language(FRENCH.split(), config) == "fra"
    # each run of 150 letters is told apart: half of them are German, half French
    mixed = layer_language((GERMAN + " " + FRENCH).split(), config)
    assert mixed is not None and sorted(mixed.split("+")) == ["deu", "fra"]
    assert layer_language((GERMAN + " Le ministre des finances").split(), config) == "deu"
    assert layer_language(["Der", "Landtag", "hat", "beschlossen"], config) == "deu"
    assert layer_language(["42", "1-2"], config) is None  # no letters


def test_words_are_judged_by_their_languages_word_lists() -> None:
    assert word_lists("por") == "portuguese+brazilian"
    assert dictionary_share(["O Ministério da Economia publica no Diário da República"],
                            "por") == 1.0
    assert dictionary_share(["as sociedades anónimas"], "spa") == 1.0  # spaCy's forms
    assert dictionary_share(["as sociedades anónimas"], "eng") == pytest.approx(1 / 3)
    assert word_lists("ara") is None and dictionary_share(["كلمة"], "ara") is None


@pytest.mark.parametrize(("language", "code", "word_list"), [
    ("el", "ell", "spacy:el_lexeme_prob"),  # tesseract's OSD takes it for Cyrillic
    ("zh-Hans", "chi_sim", None),
])
def test_a_page_is_read_in_its_own_script_with_no_language_given(
        tmp_path: Path, language: str, code: str, word_list: str | None) -> None:
    page = SCRIPT_PAGES[language]
    document = layoutkit.parse(render(page, tmp_path / "page.png", DPI))
    quality = document.ocr[0]
    assert (quality.language, quality.word_list) == (code, word_list)
    assert similarity(document.text(furniture=True), page.text, language) >= 0.92
    assert quality.score > 0.85  # judged in Greek (was 0.13 in English), or confidence alone
    ocr = document_json(document)["pages"][0]["ocr"]
    assert (ocr["language"], ocr["wordList"]) == (code, word_list)


def test_a_word_is_turned_into_the_order_its_letters_stand_and_back() -> None:
    """Tesseract gives a right-to-left word in reading order, a PDF its glyphs in the
    order they stand: the OCR word is made visual, and reordering it again gives the
    reading order back (for its language and its spelling)."""
    assert visual_order("שלום") == "םולש" and visual_order("םולש") == "שלום"
    assert visual_order("(١٢)") == "(١٢)" and visual_order("رقم12") == "12مقر"
    assert visual_order("الحكومة،") == "،ةموكحلا"
    assert visual_order("Gesetz") == "Gesetz" and visual_order("١٢") == "١٢"
    assert dictionary_share([visual_order("Gesetz")], "deu") == 1.0


@pytest.mark.parametrize(("language", "code"), [("he", "heb"), ("ar", "ara")])
def test_a_right_to_left_scan_reads_in_logical_order_with_no_language_given(
        tmp_path: Path, language: str, code: str) -> None:
    """Each line of a Hebrew and an Arabic page reads in logical order, its words right
    to left and each word's letters as written (each word was read backwards, 0.53);
    the Hebrew page exactly, the Arabic one but for tesseract's own misreadings (a
    digit, the Arabic comma read as a Latin one)."""
    page = SCRIPT_PAGES[language]
    document = layoutkit.parse(render(page, tmp_path / "page.png", DPI))
    assert document.ocr[0].language == code
    lines = [line.text for line in document.pages[0].lines]
    if language == "he":
        assert lines == list(page.lines)
    else:
        assert lines[0] == page.lines[0] and lines[-1] == page.lines[-1]
        assert similarity(document.text(furniture=True), page.text, language) >= 0.95


def test_a_french_scan_is_read_and_judged_in_french(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    made = crop(ALGERIE, 3, 8, tmp_path / "crop.png", DPI)
    document = layoutkit.parse(made.image)
    quality = document.ocr[0]
    assert (quality.language, quality.word_list) == ("fra", "french")
    assert similarity(document.text(furniture=True), made.reference, "fr") >= 0.95
    assert quality.dictionary is not None and quality.dictionary > 0.8  # 0.41 in English
    assert not caplog.records  # good French OCR is not flagged


@pytest.mark.parametrize(("name", "code", "bar"), [
    ("campbell-1881-p35-en", "eng", 0.95),
    ("wecklein-1894-p7-de-fraktur", "frk", 0.95),  # 0.925 read as roman type (deu)
    ("wecklein-1894-p87-grc", "ell", 0.92),
])
def test_a_real_scan_reads_as_its_checked_transcription_with_no_language_given(
        name: str, code: str, bar: float) -> None:
    """A crop of a real 19th-century page (English prose; German in Fraktur, which
    tesseract's script detection names and its Fraktur model reads; polytonic Greek
    verse, read with the modern Greek model) against its hand-checked transcription,
    whose accents are combining marks (compared in NFC): the issue's bar for its
    script."""
    image = COMMENTARIES / f"{name}.png"
    document = layoutkit.parse(image)
    assert document.ocr[0].language == code
    reference = image.with_suffix(".reference.txt").read_text(encoding="utf-8")
    assert similarity(document.text(furniture=True), reference, "") >= bar


@pytest.mark.parametrize(("word", "mended"), [
    ("µέλος", "μέλος"),  # the micro sign for mu
    ("νόµιξε", "νόμιξε"),
    ("ΑΘΗΝA", "ΑΘΗΝΑ"),  # a Latin A ending a Greek word
    ("TΟΥ", "ΤΟΥ"),
    ("ΕΦΗΜEPIΣ", "ΕΦΗΜΕΡΙΣ"),  # three look-alikes among five Greek letters
    ("λoγoς", "λογος"),
    ("vέα", "νέα"),
    ("πρoς,", "προς,"),  # punctuation kept
    ("Πpόεδρος", "Πpόεδρος"),  # p looks like no Greek letter: it stays
    ("мoсква", "москва"),  # a Latin o inside a Russian word
    ("Пpеcс", "Пресс"),
    ("ОФИЦИAЛЬНЫЙ", "ОФИЦИАЛЬНЫЙ"),
    ("BЕСТНИК", "ВЕСТНИК"),
    ("рeшение", "решение"),
])
def test_a_greek_or_cyrillic_ocr_word_gets_its_look_alikes_in_its_own_script(
        word: str, mended: str) -> None:
    """Inside a word most of whose letters are Greek (or Cyrillic), the micro sign and
    the Latin letters drawn as Greek (or Cyrillic) ones become those letters."""
    assert native_letters(word) == mended


@pytest.mark.parametrize("word", [
    "Ottawa", "POKER", "voice", "µm", "10µg", "µ",  # all Latin, or no script to speak of
    "ABΓΔ", "Aβ",  # half Latin, half Greek: no script has most of its letters
    "ΕΦHMEPIΣ",  # five Latin letters to three Greek: not a Greek word
    "Taxi", "ПАРК", "μέλος", "2026", "",  # nothing to mend
    "Ξa",  # a Latin a is no Greek letter, nor a Cyrillic one
])
def test_a_word_not_mostly_greek_or_cyrillic_is_left_as_it_is(word: str) -> None:
    assert native_letters(word) == word


def test_a_real_greek_scan_has_no_micro_signs_in_its_ocr_words() -> None:
    """A crop of a real page of polytonic Greek (Wecklein 1894, 971 by 432 pixels, read in
    Greek only to keep the test light): tesseract reads two of its mus as micro signs,
    νόµιξε and μµηδ', which come out as Greek letters; no word keeps a micro sign."""
    image = Image.open(COMMENTARIES / "wecklein-1894-p87-grc.png").convert("L")
    words = [w.text for w in ocr_words(image, 0.5, "ell").words]
    assert "νόμιξε" in words and "μμηδ'" in words
    assert not any("\u00b5" in word for word in words)


def test_a_text_layer_keeps_its_micro_signs_and_latin_letters(tmp_path: Path) -> None:
    """A born-digital page says which letters it drew: its µ and Latin o inside Greek
    words are read as drawn, not mended as OCR words are."""
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.ttfonts import TTFont
    from reportlab.pdfgen.canvas import Canvas

    from fixtures.scripts import DEJAVU

    pdfmetrics.registerFont(TTFont("DejaVuSans", str(DEJAVU)))
    path = tmp_path / "layer.pdf"
    canvas = Canvas(str(path))
    canvas.setFont("DejaVuSans", 12)
    canvas.drawString(72, 720, "Το µέλος του λoγου")
    canvas.save()
    assert [line.text for line in layoutkit.parse(path).pages[0].lines] == ["Το µέλος του λoγου"]


def test_lang_option_names_the_missing_pack_and_reads_with_the_scripts_model(
        tmp_path: Path) -> None:
    if "ukr" in ocr_language.installed():
        pytest.skip("the Ukrainian pack is installed here")
    page = SCRIPT_PAGES["ru"]
    image = render(page, tmp_path / "page.png", DPI)
    done = subprocess.run([sys.executable, "-m", "layoutkit", "text", str(image), "--lang", "uk"],
                          capture_output=True, text=True, check=False)
    assert done.returncode == 0
    assert done.stderr == (f"layoutkit: {image}: OCR language 'ukr' is not installed; install "
                           "it with: apt-get install tesseract-ocr-ukr; pages are read in 'rus' "
                           "instead\n")
    assert similarity(done.stdout, page.text, "ru") >= 0.92


def test_an_inbox_language_folder_gives_its_documents_language(tmp_path: Path) -> None:
    """A German page put in ``INBOX/en/`` is read in English, as the folder says (with
    no language given it is read in German)."""
    made = crop(BAYERN, 5, 6, tmp_path / "crop.png", DPI)
    staging = tmp_path / "staging"
    job = Job(1, made.image, staging / "crop.pdf", staging, ("convert", "parse"), language="en")
    assert [result.error for result in run_job(job)] == [None, None]
    ocr = json.loads((staging / "document.json").read_text(encoding="utf-8"))["pages"][0]["ocr"]
    assert (ocr["language"], ocr["wordList"]) == ("eng", "american-english")


def test_a_script_no_installed_pack_reads_is_named_with_its_pack(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A page tesseract's detection takes for Devanagari, a script no language here is
    told in, is read as Latin in gibberish: its warning says to name the language with
    --lang; an Arabic page without the Arabic pack names that pack.  A script whose pack
    is installed (Latin, and Arabic with its pack) and a page without detection need
    nothing."""
    devanagari = ocr_language.unread_script(Osd(0, 12.0, "Devanagari"))
    assert devanagari is not None and "--lang" in devanagari
    assert ocr_language.unread_script(Osd(0, 12.0, "Latin")) is None
    assert ocr_language.unread_script(None) is None
    have = ocr_language.installed()
    assert "ara" in have and ocr_language.unread_script(Osd(0, 12.0, "Arabic")) is None
    monkeypatch.setattr(ocr_language, "installed", lambda: have - {"ara"})
    arabic = ocr_language.unread_script(Osd(0, 12.0, "Arabic"))
    assert arabic is not None and arabic.endswith("apt-get install tesseract-ocr-ara")


def test_a_layer_that_reads_in_its_scripts_first_language_needs_no_detector(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """An English scan's text layer, read in the English list at the quality a layer is
    kept at, is English without py3langid's model (most of a second to load in each
    process); a French layer, 0.4 of whose words read in English, is still told by it."""
    english = str.split("The invention relates to an electric motor in which the field "
                        "magnet is wound with two coils and the armature turns between them")
    french = str.split("Le présent décret fixe les conditions dans lesquelles les communes "
                       "peuvent recevoir une aide de l'État pour leurs travaux")
    config = LayoutConfig()
    assert ocr_language.layer_language(french, config) == "fra"

    def no_detector(isos: tuple[str, ...]) -> None:
        raise AssertionError("the language detector was asked")

    monkeypatch.setattr(ocr_language, "_identifier", no_detector)
    assert ocr_language.layer_language(english, config) == "eng"
    with pytest.raises(AssertionError, match="detector was asked"):
        ocr_language.layer_language(french, config)
