"""A rich table that lays itself out without rich where the output carries no styles.

Rich lays out a table cell by cell (each cell padded, measured, wrapped and shaped on its own):
a few tens of milliseconds for the players' or companies' table, redrawn on every screen.  When
the console writes no colours (output to a file or a pipe: ``color_system`` is None) only the
characters count, and for a table whose cells are single lines that fit the width, those are
simple: each column as wide as its widest cell, each cell justified and padded, the columns
joined by the box's dividers.  :class:`PlainTable` writes those characters itself in that case
and hands every other case (colours, a title or cell that would wrap, a box with edges, markup
in a string cell) to rich unchanged, so the text is the same as rich's either way
(tests/interfaces/test_plain_table.py compares the two).
"""

from __future__ import annotations

import re

from rich import box as rich_box
from rich.cells import cell_len
from rich.columns import Columns
from rich.console import Console, ConsoleOptions, RenderResult
from rich.segment import Segment
from rich.table import Column, Table
from rich.text import Text

# Boxes drawn here: none, and the simple head rule without edges.
_BOXES = (None, rich_box.SIMPLE_HEAD)
# A string cell with these may be rich markup, an emoji code (":name:") or hold a control
# character: rich reads it.
_NOT_PLAIN = re.compile(r"[\[\]\x00-\x1f\x7f-\x9f]|:\S*:")


def _plain(cell: object) -> str | None:
    """The characters of one cell, or None where rich must read it."""
    if isinstance(cell, Text):
        if cell.justify is not None:
            return None
        text = cell.plain
    elif isinstance(cell, str) and not _NOT_PLAIN.search(cell):
        text = cell
    else:
        return None
    # One line with no blank at its end: rich's wrapping keeps such a line as it is.
    if "\n" in text or "\t" in text or text != text.rstrip():
        return None
    return text


def _as_plain(table: Table) -> PlainTable:
    """The same table, laid out as a :class:`PlainTable`."""
    plain = PlainTable.__new__(PlainTable)
    plain.__dict__.update(vars(table))
    return plain


class PlainTable(Table):
    """A :class:`rich.table.Table` whose uncoloured single-line layout skips rich's."""

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        lines = self._plain_lines(console, options)
        if lines is None:
            yield from super().__rich_console__(console, options)
            return
        new_line = Segment.line()
        for line in lines:
            yield Segment(line)
            yield new_line

    def _simple(self, console: Console, options: ConsoleOptions) -> bool:
        """Only what :meth:`_plain_lines` lays out as rich does (else rich draws it)."""
        return (console.color_system is None and not options.ascii_only
                and not options.legacy_windows and bool(self.columns)
                and self.box in _BOXES and not (self.box and self.show_edge)
                and self.width is None and self.min_width is None and not self.expand
                and not self.show_footer and not self.caption and not self.show_lines
                and not self.leading and self.padding[0] == self.padding[2] == 0
                and not self.row_styles
                and (not self.title or self.title_justify == "left")
                and not any(row.end_section or row.style for row in self.rows)
                and all(c.width is None and c.min_width is None and c.max_width is None
                        and not c.ratio and c.justify in ("left", "right")
                        and c.vertical == "top"
                        for c in self.columns))

    def _plain_lines(self, console: Console, options: ConsoleOptions) -> list[str] | None:
        if not self._simple(console, options):
            return None
        count = len(self.columns)
        grid: list[list[str]] = []
        for column in self.columns:
            cells = ([column.header] if self.show_header else []) + list(column.cells)
            texts = [_plain(cell) for cell in cells]
            if any(t is None for t in texts):
                return None
            grid.append([t for t in texts if t is not None])
        pads = [self._pad(i) for i in range(count)]
        widths = self._widths(grid, pads, options.max_width - (count - 1 if self.box else 0))
        if widths is None:
            return None
        table_width = sum(widths) + (count - 1 if self.box else 0)
        lines: list[str] = []
        if self.title:
            title = _plain(self.title)
            if title is None or cell_len(title) > table_width:
                return None
            lines.append(title + " " * (table_width - cell_len(title)))
        rows = list(zip(*grid, strict=True))
        for index, row in enumerate(rows):
            blocks = [self._cell(console, text, width, pad, column)
                     for text, width, pad, column in zip(row, widths, pads, self.columns,
                                                         strict=True)]
            height = max(len(block) for block in blocks)
            header = index == 0 and self.show_header
            # Rich aligns a header's cells at the bottom, the others at the top.
            shaped = [[" " * width] * (height - len(block)) + block if header
                      else block + [" " * width] * (height - len(block))
                      for block, width in zip(blocks, widths, strict=True)]
            divider = self._divider(index, len(rows))
            lines.extend(divider.join(parts) for parts in zip(*shaped, strict=True))
            if header and self.box:
                lines.append(self.box.get_row(widths, "head", edge=False))
        return lines

    def _pad(self, index: int) -> tuple[int, int]:
        """The spaces left and right of column ``index``'s cells (rich's ``_get_cells``)."""
        _, right, _, left = self.padding
        if self.collapse_padding and index > 0:
            left = max(0, left - right)
        if not self.pad_edge:
            left = 0 if index == 0 else left
            right = 0 if index == len(self.columns) - 1 else right
        return left, right

    def _widths(self, grid: list[list[str]], pads: list[tuple[int, int]],
                room: int) -> list[int] | None:
        """Each column's width with its padding, as rich measures it: the widest cell, and
        where the columns together are wider than ``room``, rich's collapse of the widest
        ones (their cells then wrap); None where rich would have to squeeze harder."""
        widths = [max((cell_len(t) for t in texts), default=0) + left + right or 1
                  for texts, (left, right) in zip(grid, pads, strict=True)]
        if any(width > room for width in widths):
            return None
        if sum(widths) > room:
            widths = self._collapse_widths(
                widths, [c.width is None and not c.no_wrap for c in self.columns], room)
            if sum(widths) > room or any(width <= left + right for width, (left, right)
                                         in zip(widths, pads, strict=True)):
                return None
        return widths

    @staticmethod
    def _cell(console: Console, text: str, width: int, pad: tuple[int, int],
              column: Column) -> list[str]:
        """The lines of one cell, justified and padded to ``width``."""
        left, right = pad
        inner = width - left - right
        if cell_len(text) <= inner:
            gap = " " * (inner - cell_len(text))
            bodies = [gap + text if column.justify == "right" else text + gap]
        else:
            wrapped = Text(text).wrap(console, inner, justify=column.justify,
                                      overflow=column.overflow, tab_size=8, no_wrap=False)
            bodies = [line.plain + " " * (inner - cell_len(line.plain)) for line in wrapped]
        return [" " * left + body + " " * right for body in bodies]

    def _divider(self, index: int, count: int) -> str:
        """The box's column divider on row ``index`` of ``count`` (head, middle or foot)."""
        if self.box is None:
            return ""
        if index == 0:
            return self.box.head_vertical
        return self.box.foot_vertical if index == count - 1 else self.box.mid_vertical


class PlainColumns(Columns):
    """:class:`rich.columns.Columns` whose grid (rich's choice of columns) is a
    :class:`PlainTable`."""

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        for item in super().__rich_console__(console, options):
            yield _as_plain(item) if type(item) is Table else item
