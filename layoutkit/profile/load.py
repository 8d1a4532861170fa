"""Reading a profile: TOML in, a validated `Profile` out, or every problem at once.

- Each problem is one message naming the file, the line (found by locating the key in
  the source text), the key path and what is allowed.
- A profile that `extends` another (a bundled profile's name, or a path relative to
  the file) starts from the other's rules: its own `pages` and `sections` come after
  the inherited ones (so they win), its `furniture` bands and `config` keys replace
  the inherited ones, its `ignore` boxes add to them.
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

from ..config import LayoutConfig
from ..errors import ConfigError, ProfileError, UsageError
from .patterns import check_pattern
from .selectors import ALLOWED as SELECTOR_ALLOWED
from .selectors import PageSelector, parse_selector
from .values import Band, Box, Ignore, Kind, Layout, PageRule, Profile, Region, Section, Until

__all__ = ["bundled_profiles", "load_profile", "resolve_profile"]

_TOP_KEYS = ("name", "description", "extends", "config", "furniture", "pages", "sections",
             "ignore")
_LAYOUT_KEYS = ("layout", "columns", "gutters", "units")
_PAGE_KEYS = ("select", *_LAYOUT_KEYS, "regions")
_REGION_KEYS = ("box", "kind", "columns", "gutters", "units", "order")
_SECTION_KEYS = ("name", "starts_at", "until", *_LAYOUT_KEYS)
_IGNORE_KEYS = ("select", "box", "units")
_BAND_KEYS = ("top", "bottom", "units")
_UNITS = ("points", "fraction")
_PAGE_LAYOUTS = (Kind.AUTO, Kind.SINGLE, Kind.COLUMNS, Kind.POSITIONAL, "regions")
_REGION_KINDS = tuple(Kind)

Path_ = tuple[str | int, ...]


def bundled_profiles() -> dict[str, Path]:
    """The profiles shipped with layoutkit, by name."""
    folder = resources.files("layoutkit") / "profiles"
    return {Path(entry.name).stem: Path(str(entry)) for entry in folder.iterdir()
            if entry.name.endswith(".toml")}


def resolve_profile(spec: str | Path, folder: Path | None = None) -> Path:
    """The file a ``--profile`` (or ``extends``) value names: a bundled profile's name,
    or a path (relative to ``folder``, by default the current one) to a ``.toml``
    file.  Any other file is refused unread: a profile reads only profiles."""
    bundled = bundled_profiles()
    if str(spec) in bundled:
        return bundled[str(spec)]
    path = (folder or Path()) / spec
    if path.is_dir():
        raise UsageError(f"profile {str(spec)!r}: is a folder; expected a TOML file or the "
                         f"name of a bundled profile ({', '.join(sorted(bundled))})")
    if path.suffix.lower() != ".toml":
        what = "not a .toml file" if path.exists() else "no such file"
        raise UsageError(f"profile {str(spec)!r}: {what} and no bundled profile of that "
                         f"name; expected a bundled profile ({', '.join(sorted(bundled))}) "
                         f"or a .toml file")
    if not path.is_file():
        what = "not a regular file" if path.exists() else "no such file"
        raise UsageError(f"profile {str(spec)!r}: {what}; expected a bundled profile "
                         f"({', '.join(sorted(bundled))}) or a .toml file")
    return path


def load_profile(spec: str | Path) -> Profile:
    """The validated profile ``spec`` names (see
    [`resolve_profile`][layoutkit.profile.load.resolve_profile]).

    Raises ProfileError listing every problem of the file and of the profiles it
    extends.
    """
    chain = _chain(resolve_profile(spec), ())
    problems = [p for part in chain for p in part.problems]
    merged = _merge(chain)
    config: LayoutConfig | None = None
    last = chain[-1]
    try:
        config = LayoutConfig.from_mapping(merged.config)
    except ConfigError as exc:
        problems.append(f"{last.where(('config',))}: {exc}")
    if merged.name is None and all(part.parsed for part in chain):
        problems.append(f"{last.path}: name: missing; expected a string naming the publication")
    if problems or config is None or merged.name is None:
        raise ProfileError(problems)
    return Profile(merged.name, merged.description or "", last.path, config,
                   tuple(merged.pages), tuple(merged.sections), merged.header, merged.footer,
                   tuple(merged.ignore))


@dataclass
class _Part:
    """One file's validated contents, and its problems (filled in by `_Reader`)."""

    path: Path
    lines: list[str]
    problems: list[str] = field(default_factory=list)
    parsed: bool = True
    """Whether the file is TOML (its keys were read); a file that is not has no missing
    keys to report."""
    name: str | None = None
    description: str | None = None
    config: dict[str, Any] = field(default_factory=dict)
    pages: list[PageRule] = field(default_factory=list)
    sections: list[Section] = field(default_factory=list)
    header: Band | None = None
    footer: Band | None = None
    ignore: list[Ignore] = field(default_factory=list)

    def where(self, key: Path_) -> str:
        """``file:line: key`` for a key path (the line left out when it cannot be found)."""
        line = _locate(self.lines, key)
        at = f"{self.path}:{line}" if line else str(self.path)
        return f"{at}: {_dotted(key)}" if key else at

    def problem(self, key: Path_, what: str) -> None:
        self.problems.append(f"{self.where(key)}: {what}")


def _dotted(key: Path_) -> str:
    text = ""
    for part in key:
        text += f"[{part}]" if isinstance(part, int) else f".{part}" if text else part
    return text


def _locate(lines: list[str], key: Path_) -> int | None:
    """The 1-based line where ``key`` is defined, found by walking the source: an
    index counts ``[[array]]`` headers, a name finds ``name =`` or a table header."""
    start, found, names = 0, None, list[str]()
    for part in key:
        if isinstance(part, int):
            header = re.compile(rf"^\s*\[\[\s*{re.escape('.'.join(names))}\s*\]\]")
            hits = [n for n in range(start, len(lines)) if header.match(lines[n])]
            if part < len(hits):
                start = found = hits[part]
            continue
        names.append(part)
        pattern = re.compile(rf"^\s*({re.escape(part)}\s*=|\[+\s*{re.escape('.'.join(names))}"
                             r"\s*\]+)|[{,]\s*" + re.escape(part) + r"\s*=")
        hit = next((n for n in range(start, len(lines)) if pattern.search(lines[n])), None)
        if hit is None:
            break
        start = found = hit
    return None if found is None else found + 1


def _chain(path: Path, seen: tuple[Path, ...]) -> list[_Part]:
    """The profiles ``path`` extends, root first, then ``path`` itself, validated.

    The problems of a profile extended from a file are summed up in one problem of
    ``extends``, so no error shows what another file holds."""
    source = _source(path)
    part = _Part(path, source.splitlines())
    try:
        data = tomllib.loads(source)
    except tomllib.TOMLDecodeError as exc:
        part.problem((), f"not valid TOML ({exc})")
        part.parsed = False
        return [part]
    except RecursionError:
        part.problem((), "not valid TOML (arrays or tables nested too deeply)")
        part.parsed = False
        return [part]
    parents: list[_Part] = []
    extends = data.get("extends")
    if extends is not None:
        if not isinstance(extends, str):
            part.problem(("extends",), "expected the name of a bundled profile or a path")
        else:
            try:
                parent = resolve_profile(extends, path.parent)
            except UsageError as exc:
                part.problem(("extends",), str(exc))
            else:
                if parent.resolve() in seen or parent.resolve() == path.resolve():
                    part.problem(("extends",), f"{extends!r} extends this profile again "
                                               "(a cycle)")
                else:
                    parents = _chain(parent, (*seen, path.resolve()))
                    hidden = sum(len(p.problems) for p in parents)
                    if hidden:
                        part.problem(("extends",), f"{extends!r} is not a valid profile "
                                                   f"({hidden} problem(s); see layoutkit "
                                                   f"profile check {parent})")
                        for inherited in parents:
                            inherited.problems.clear()
    try:
        _Reader(part).read(data)
    except RecursionError:
        part.problem((), "values nested too deeply")
    return [*parents, part]


def _source(path: Path) -> str:
    """The text of the profile file ``path``; a ProfileError naming it when it cannot
    be read or is not UTF-8."""
    try:
        return path.read_text(encoding="utf-8")
    except UnicodeDecodeError as exc:
        raise ProfileError([f"{path}: not UTF-8 text (a byte that cannot start or continue "
                            f"a character at offset {exc.start}); a profile is a UTF-8 "
                            f"TOML file"]) from None
    except OSError as exc:
        raise ProfileError([f"{path}: cannot read ({exc.strerror or exc})"]) from None


def _merge(chain: list[_Part]) -> _Part:
    merged = _Part(chain[-1].path, chain[-1].lines)
    for part in chain:
        merged.name = part.name or merged.name
        merged.description = part.description or merged.description
        merged.config.update(part.config)
        merged.pages += part.pages
        merged.sections += part.sections
        merged.header = part.header or merged.header
        merged.footer = part.footer or merged.footer
        merged.ignore += part.ignore
    return merged


def _allowed(values: tuple[str, ...] | tuple[Kind, ...]) -> str:
    return ", ".join(str(v) for v in values)


class _Reader:
    """Validates one file's TOML data into its `_Part`, noting every problem."""

    def __init__(self, part: _Part) -> None:
        self.part = part

    def problem(self, key: Path_, what: str) -> None:
        self.part.problem(key, what)

    def keys(self, table: dict[str, Any], key: Path_, allowed: tuple[str, ...]) -> None:
        for name in table:
            if name not in allowed:
                self.problem((*key, name), f"unknown key; allowed here: {_allowed(allowed)}")

    def table(self, value: object, key: Path_) -> dict[str, Any] | None:
        if isinstance(value, dict):
            return value
        self.problem(key, f"expected a table, got {value!r}")
        return None

    def tables(self, data: dict[str, Any], name: str) -> list[tuple[Path_, dict[str, Any]]]:
        value = data.get(name, [])
        if not isinstance(value, list):
            self.problem((name,), f"expected an array of tables ([[{name}]])")
            return []
        return [(k, t) for k, t in (((name, n), item) for n, item in enumerate(value))
                if self.table(t, k) is not None]

    def read(self, data: dict[str, Any]) -> None:
        part = self.part
        self.keys(data, (), _TOP_KEYS)
        for name in ("name", "description"):
            if name in data and not isinstance(data[name], str):
                self.problem((name,), "expected a string")
        part.name = data["name"] if isinstance(data.get("name"), str) else None
        part.description = data.get("description") if isinstance(
            data.get("description"), str) else None
        config = self.table(data.get("config", {}), ("config",))
        if config is not None:
            known = LayoutConfig.known_keys()
            for name in config:
                if name not in known:
                    self.problem(("config", name),
                                 f"unknown config key; known keys: {', '.join(known)}")
            part.config = {k: v for k, v in config.items() if k in known}
        furniture = self.table(data.get("furniture", {}), ("furniture",))
        if furniture is not None:
            self.keys(furniture, ("furniture",), ("header", "footer"))
            part.header = self.band(furniture, "header")
            part.footer = self.band(furniture, "footer")
        for key, table in self.tables(data, "pages"):
            rule = self.page_rule(table, key)
            if rule is not None:
                part.pages.append(rule)
        for key, table in self.tables(data, "sections"):
            section = self.section(table, key)
            if section is not None:
                part.sections.append(section)
        for key, table in self.tables(data, "ignore"):
            self.keys(table, key, _IGNORE_KEYS)
            select = self.selector(table, key)
            box = self.box(table, key)
            if select is not None and box is not None:
                part.ignore.append(Ignore(select, box, _dotted(key)))

    def units(self, table: dict[str, Any], key: Path_) -> bool | None:
        """Whether the table's lengths are page fractions (None: a bad value)."""
        units = table.get("units", "points")
        if units not in _UNITS:
            self.problem((*key, "units"), f"unknown units {units!r}; expected one of "
                                          f"{_allowed(_UNITS)}")
            return None
        return bool(units == "fraction")

    def lengths(self, values: list[Any], fraction: bool, key: Path_) -> bool:
        """Whether ``values`` are all lengths (numbers >= 0, and <= 1 as fractions)."""
        ok = all(isinstance(v, int | float) and not isinstance(v, bool) and v >= 0
                 for v in values)
        if ok and fraction and any(v > 1 for v in values):
            self.problem(key, f"{values!r} lies outside the page: fractions run from 0 to 1")
            return False
        if not ok:
            self.problem(key, f"expected numbers >= 0 (points, or fractions with "
                              f"units = \"fraction\"), got {values!r}")
        return ok

    def band(self, furniture: dict[str, Any], name: str) -> Band | None:
        key: Path_ = ("furniture", name)
        if name not in furniture:
            return None
        band = self.table(furniture[name], key)
        if band is None:
            return None
        self.keys(band, key, _BAND_KEYS)
        fraction = self.units(band, key)
        if fraction is None or not {"top", "bottom"} <= set(band):
            if fraction is not None:
                self.problem(key, "expected { top = N, bottom = N } (points from the top)")
            return None
        top, bottom = band["top"], band["bottom"]
        if not self.lengths([top, bottom], fraction, key):
            return None
        if top >= bottom:
            self.problem(key, f"top {top} must lie above bottom {bottom}")
            return None
        return Band(float(top), float(bottom), fraction)

    def box(self, table: dict[str, Any], key: Path_) -> Box | None:
        fraction = self.units(table, key)
        value = table.get("box")
        if not isinstance(value, list) or len(value) != 4:
            self.problem((*key, "box"), f"expected [x0, top, x1, bottom], got {value!r}")
            return None
        if fraction is None or not self.lengths(value, fraction, (*key, "box")):
            return None
        x0, top, x1, bottom = (float(v) for v in value)
        if x0 >= x1 or top >= bottom:
            self.problem((*key, "box"), f"{value!r} is empty: expected x0 < x1 and top < bottom")
            return None
        return Box(x0, top, x1, bottom, fraction)

    def selector(self, table: dict[str, Any], key: Path_) -> PageSelector | None:
        if "select" not in table:
            self.problem((*key, "select"), f"missing; expected {SELECTOR_ALLOWED}")
            return None
        try:
            return parse_selector(table["select"])
        except ValueError as exc:
            self.problem((*key, "select"), f"{exc}; expected {SELECTOR_ALLOWED}")
            return None

    def layout(self, table: dict[str, Any], key: Path_, name: str,
               allowed: tuple[str, ...] | tuple[Kind, ...]) -> Layout | str | None:
        """The layout a table describes (``"regions"`` for a page of explicit regions)."""
        value = table.get(name, "auto")
        if value not in allowed:
            self.problem((*key, name), f"unknown {name} {value!r}; expected one of "
                                       f"{_allowed(allowed)}")
            return None
        fraction = self.units(table, key)
        if value != Kind.COLUMNS:
            for extra in ("columns", "gutters"):
                if extra in table:
                    self.problem((*key, extra), f"only with {name} = \"columns\"")
            return Layout(Kind(value)) if value != "regions" else "regions"
        columns, gutters = table.get("columns"), table.get("gutters", [])
        if isinstance(columns, bool) or not isinstance(columns, int) or columns < 1:
            self.problem((*key, "columns"), f"expected a whole number of columns >= 1, "
                                            f"got {columns!r}")
            return None
        if not isinstance(gutters, list) or (gutters and len(gutters) != columns - 1):
            self.problem((*key, "gutters"), f"expected {columns - 1} gutter x positions "
                                            f"(one between each two columns), got {gutters!r}")
            return None
        if fraction is None or not self.lengths(gutters, fraction, (*key, "gutters")):
            return None
        if gutters != sorted(gutters):
            self.problem((*key, "gutters"), f"expected positions left to right, got {gutters!r}")
            return None
        return Layout(Kind.COLUMNS, columns, tuple(float(g) for g in gutters), fraction)

    def page_rule(self, table: dict[str, Any], key: Path_) -> PageRule | None:
        self.keys(table, key, _PAGE_KEYS)
        select = self.selector(table, key)
        layout = self.layout(table, key, "layout", _PAGE_LAYOUTS)
        regions: list[Region] = []
        if layout == "regions":
            raw = table.get("regions")
            if not isinstance(raw, list) or not raw:
                self.problem((*key, "regions"), "layout = \"regions\" needs [[pages.regions]] "
                                                "tables")
                return None
            for n, item in enumerate(raw):
                region = self.region(item, (*key, "regions", n))
                if region is not None:
                    regions.append(region)
            self.overlaps(regions, key)
            layout = Layout(Kind.AUTO)
        elif "regions" in table:
            self.problem((*key, "regions"), "only with layout = \"regions\"")
        if select is None or not isinstance(layout, Layout):
            return None
        return PageRule(select, layout, tuple(regions), _dotted(key))

    def region(self, item: object, key: Path_) -> Region | None:
        table = self.table(item, key)
        if table is None:
            return None
        self.keys(table, key, _REGION_KEYS)
        box = self.box(table, key)
        layout = self.layout(table, key, "kind", _REGION_KINDS)
        order = table.get("order")
        if isinstance(order, bool) or not isinstance(order, int):
            self.problem((*key, "order"), f"expected a whole number (regions are read in "
                                          f"ascending order), got {order!r}")
            return None
        if box is None or not isinstance(layout, Layout):
            return None
        return Region(box, layout, order, _dotted(key))

    def overlaps(self, regions: list[Region], key: Path_) -> None:
        """A problem for every two regions read at the same order that overlap."""
        for n, a in enumerate(regions):
            for b in regions[n + 1:]:
                if (a.order == b.order and a.box.fraction == b.box.fraction
                        and min(a.box.x1, b.box.x1) > max(a.box.x0, b.box.x0)
                        and min(a.box.bottom, b.box.bottom) > max(a.box.top, b.box.top)):
                    self.problem((*key, "regions"), f"{b.key} overlaps {a.key} and both have "
                                                    f"order {a.order}; give them different "
                                                    "orders or boxes that do not overlap")

    def section(self, table: dict[str, Any], key: Path_) -> Section | None:
        self.keys(table, key, _SECTION_KEYS)
        name = table.get("name")
        if not isinstance(name, str) or not name:
            self.problem((*key, "name"), "expected a string naming the section")
        starts = table.get("starts_at")
        pattern: str | None = None
        if not isinstance(starts, dict) or set(starts) != {"line"} or not isinstance(
                starts["line"], str):
            self.problem((*key, "starts_at"), f"expected {{ line = \"REGEX\" }}, got {starts!r}")
        else:
            problem = check_pattern(starts["line"])
            if problem is None:
                pattern = starts["line"]
            else:
                self.problem((*key, "starts_at"), problem)
        until = table.get("until", Until.NEXT_SECTION)
        if until not in tuple(Until):
            self.problem((*key, "until"), f"unknown until {until!r}; expected one of "
                                          f"{_allowed(tuple(Until))}")
        layout = self.layout(table, key, "layout", tuple(k for k in Kind))
        if not isinstance(name, str) or pattern is None or not isinstance(layout, Layout) \
                or until not in tuple(Until):
            return None
        return Section(name, pattern, layout, Until(until), _dotted(key))
