"""Publication profiles: per-publication rules that say how each page is read.

`load_profile` reads and validates a TOML profile (a path, or the name of a bundled
one); `stage` applies it between geometry and reading order.
"""

from .load import bundled_profiles, load_profile, resolve_profile
from .selectors import PageSelector, parse_selector
from .values import Band, Box, Ignore, Kind, Layout, PageRule, Profile, Region, Section, Until

__all__ = [
    "Band", "Box", "Ignore", "Kind", "Layout", "PageRule", "PageSelector", "Profile", "Region",
    "Section", "Until", "bundled_profiles", "load_profile", "parse_selector", "resolve_profile",
]
