"""What every Omiga state offers the faces, whatever its mode: the table its cards lie on (the
board games' counterpart is `ogames.rules.protocol.BoardState`). A module of its own, so that a
face may check for it without loading the table's compiled kernels."""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol, runtime_checkable

from typing_extensions import TypeIs

from ogames.rules.protocol import conforms

if TYPE_CHECKING:
    from ogames.rules.omiga.table import Table


@runtime_checkable
class TableState(Protocol):
    """An Omiga state of any mode: base, 2v2, kids, toddler, zen."""

    @property
    def table(self) -> Table:
        """The card grid (of the current round in 2v2)."""
        ...


def is_table_state(state: object) -> TypeIs[TableState]:
    """Whether a state lays cards on a table: `isinstance(state, TableState)`, remembered per class."""
    return conforms(state, TableState)
