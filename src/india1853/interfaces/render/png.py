"""SVG to PNG (resvg, with the DejaVu fonts bundled in matplotlib: the same picture on
every machine), and writing a picture to a file by its suffix.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

from india1853.errors import InputError
from india1853.interfaces.render.svg import FONT_FAMILY

# The fonts the PNG is drawn with: the DejaVu faces that ship inside matplotlib (a dependency),
# never the system's, so that the picture is the same on every machine.
PNG_FONT_FILES = ("DejaVuSans.ttf", "DejaVuSans-Bold.ttf")


def png_font_files() -> list[str]:
    """Paths of the DejaVu Sans faces inside matplotlib's data; InputError if missing."""
    # Found, not imported: importing matplotlib (for ``get_data_path``, the package's
    # ``mpl-data`` folder) cost each PNG-writing command about 0.3 CPU-seconds.
    try:
        spec = importlib.util.find_spec("matplotlib")
    except (ImportError, ValueError):  # a package that cannot be imported
        spec = None
    if spec is None or spec.origin is None:
        raise InputError("PNG output needs matplotlib's DejaVu fonts (pip install matplotlib); "
                         "write .svg instead")
    folder = Path(spec.origin).with_name("mpl-data") / "fonts" / "ttf"
    files = [folder / name for name in PNG_FONT_FILES]
    missing = [f.name for f in files if not f.is_file()]
    if missing:
        raise InputError(f"PNG output: font {missing[0]} not found in {str(folder)!r}; "
                         "write .svg instead")
    return [str(f) for f in files]


def svg_to_png_bytes(svg: str) -> bytes:
    """Rasterise ``svg`` with resvg (a self-contained wheel: no system library) using only the
    bundled DejaVu fonts; a missing or failing rasteriser raises a one-line InputError."""
    try:
        import resvg_py
    except ImportError:
        raise InputError("PNG output needs the resvg-py package (pip install resvg-py); "
                         "write .svg instead") from None
    fonts = png_font_files()
    try:
        return resvg_py.svg_to_bytes(
            svg_string=svg, font_files=fonts, skip_system_fonts=True,
            font_family=FONT_FAMILY, sans_serif_family=FONT_FAMILY,
        )
    except Exception as exc:  # the binding reports any failure as some exception
        first = (str(exc).strip().splitlines() or [type(exc).__name__])[0]
        raise InputError(f"PNG output: the rasteriser failed: {first}") from None


def svg_to_png(svg: str, path: str | Path) -> None:
    """Rasterise ``svg`` (:func:`svg_to_png_bytes`) and write it to ``path``; an unwritable
    path raises InputError."""
    target = Path(path)
    png = svg_to_png_bytes(svg)
    try:
        target.write_bytes(png)
    except OSError as exc:
        raise InputError(f"cannot write {str(target)!r}: {exc.strerror or exc}") from None


def write_picture(svg: str, path: str | Path) -> Path:
    """Write ``svg`` to ``path`` as SVG or PNG according to its suffix; return the path.

    A missing parent directory is created (``make run`` and ``--out out/board.png`` in a fresh
    checkout); a path that cannot be written raises a one-line InputError."""
    target = Path(path)
    suffix = target.suffix.lower()
    if suffix not in (".svg", ".png"):
        raise InputError(f"--out {str(target)!r}: expected a file name ending in .svg or .png")
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
    except FileExistsError:
        raise InputError(f"cannot write {str(target)!r}: {str(target.parent)!r} is not a "
                         "directory") from None
    except OSError as exc:
        raise InputError(f"cannot write {str(target)!r}: {exc.strerror or exc}") from None
    try:
        if suffix == ".svg":
            target.write_text(svg, encoding="utf-8")
        else:
            svg_to_png(svg, target)
    except OSError as exc:
        raise InputError(f"cannot write {str(target)!r}: {exc.strerror or exc}") from None
    return target

