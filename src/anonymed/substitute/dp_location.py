"""The ``dp_location`` operator: a place replaced by a similar one through an exponential mechanism.

Tchouka et al. (Sect. 4.2, Algorithm 1, Figure 6): the candidates for place ``j`` are the places of a
public table within ``radius_km`` of it, reduced to the ``k`` nearest in normalised feature space
(population, health indicators...; ``places.PlaceTable.candidates``); candidate ``i`` has utility
``U(j, i) = 1 - d(j, i)`` and is drawn with probability ``∝ exp(epsilon·U(j, i))``. The paper uses
``exp(epsilon·U)`` with no factor 1/2 and no sensitivity ("the centralized exponential mechanism with public
data, i.e. without sensitivity"); ``scaling="paper"`` (default) does exactly that and reproduces Figure 6
(Dijon, epsilon = 0.25: Dijon 0.133468, Besançon 0.120203, ...). The draw is OpenDP's Gumbel noisy max.

Guarantee, honestly stated. The paper's proof of epsilon·d-privacy (Property 1) cancels the normalising
factor ``a`` between the two inputs, but ``a`` depends on the input. Over one fixed candidate set, the
exact bound is ``exp(2·epsilon·d(j1, j2))``: the utilities give one ``exp(epsilon·d)`` (triangle
inequality) and the ratio of normalisers another. ``scaling="calibrated"`` draws with ``exp(epsilon·U/2)``
and is then ``epsilon·d``-private over a shared candidate set. Across places whose candidate sets differ
(the set depends on the true place through the radius and the k nearest), an output possible for one and
not the other has an unbounded ratio: the mechanism protects a place against the places that share its
neighbourhood, not against every other place. An isolated place gets at least its ``k`` geographically
nearest places as candidates, so it is never returned with certainty.

Every occurrence of one place (in any spelling that resolves to the same table row) gets one draw and one
charge. Places the table does not know (hospital names, streets) go to the fallback operator and are
counted in the report. OpenDP's samplers cannot be seeded: a seeded run reproduces everything but the draw.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from anonymed.document import Span
from anonymed.errors import ConfigError
from anonymed.substitute import mechanisms
from anonymed.substitute.base import Context
from anonymed.substitute.dp_common import DPDocState, DPOperator, DPParams
from anonymed.substitute.places import Candidates, PlaceTable, load_places

SCALINGS = ("paper", "calibrated")
NORMALISATIONS = ("radius", "table")


@dataclass(frozen=True)
class DPLocationParams(DPParams):
    """Table (default | bfc_communes | CSV path), features (empty: all), radius, k, scaling, normalisation."""

    table: str = "default"
    features: tuple[str, ...] = ()
    radius_km: float = 100.0
    k: int = 10
    scaling: str = "paper"
    normalise: str = "radius"

    def __post_init__(self) -> None:
        object.__setattr__(self, "features", tuple(self.features))


def styled(name: str, original: str) -> str:
    """A table name in the case style of the text it replaces."""
    if original.isupper() and len(original) > 1:
        return name.upper()
    if original.islower():
        return name.lower()
    return name.title() if name.isupper() else name


class DPLocationOperator(DPOperator[DPLocationParams]):
    """Replace a place by one drawn from its neighbours in feature space (exponential mechanism)."""

    name = "dp_location"
    params_type = DPLocationParams

    def validate(self) -> None:
        """Check radius, k, scaling, normalisation; load the table and check the features exist."""
        super().validate()
        p = self.params
        if not p.radius_km > 0 or not (isinstance(p.k, int) and p.k >= 2):
            raise ConfigError(f"dp_location needs radius_km > 0 and k >= 2, got {p.radius_km!r}, {p.k!r}")
        if p.scaling not in SCALINGS or p.normalise not in NORMALISATIONS:
            raise ConfigError(
                f"dp_location scaling must be one of {SCALINGS} and normalise one of {NORMALISATIONS}, "
                f"got {p.scaling!r}, {p.normalise!r}"
            )
        known = {*self.table().feature_names, "latitude", "longitude"}
        unknown = [f for f in self.features() if f not in known]
        if unknown:
            raise ConfigError(f"dp_location features {unknown} are not numeric columns of table {p.table!r}")

    def table(self) -> PlaceTable:
        """The place table (loaded once per process)."""
        return load_places(self.params.table)

    def features(self) -> tuple[str, ...]:
        """The feature columns used for distances."""
        return self.params.features or self.table().feature_names or ("latitude", "longitude")

    def parse(self, spans: Sequence[Span], context: Context) -> dict[tuple[int, int], tuple[str, Any] | None]:
        """Each span resolved to a table row; unknown places go to the fallback."""
        table = self.table()
        parsed: dict[tuple[int, int], tuple[str, Any] | None] = {}
        for span in spans:
            row = table.lookup(span.text)
            parsed[(span.start, span.end)] = None if row is None else (f"{span.label.value}:place:{row}", row)
        return parsed

    def _candidates(self, row: int) -> Candidates:
        p = self.params
        return self.table().candidates(
            row, features=self.features(), radius_km=p.radius_km, k=p.k, normalise=p.normalise
        )

    def _effective(self, epsilon: float) -> float:
        return epsilon if self.params.scaling == "paper" else epsilon / 2

    def choose(self, row: int, epsilon: float) -> int:
        """One draw of the mechanism for the place at ``row`` with budget ``epsilon``: a table row."""
        found = self._candidates(row)
        return found.rows[mechanisms.exponential_choice(found.utilities, self._effective(epsilon))]

    def p_unchanged(self, row: int, epsilon: float) -> float:
        """P(the draw for the place at ``row`` is the place itself) (its probability among the candidates)."""
        found = self._candidates(row)
        if row not in found.rows:
            return 0.0
        law = mechanisms.exponential_probabilities(found.utilities, self._effective(epsilon))
        return law[found.rows.index(row)]

    def surrogate(self, span: Span, key: str, value: Any, context: Context, state: DPDocState) -> str:
        """The name of the drawn place, in the case style of the span."""
        p = self.params
        assert isinstance(value, int)
        parameters = {
            "utility": "1 - d",
            "weights": "exp(epsilon*U)" if p.scaling == "paper" else "exp(epsilon*U/2)",
            "guarantee": ("2" if p.scaling == "paper" else "1") + "*epsilon*d over a shared candidate set",
            "k": p.k,
            "radius_km": p.radius_km,
            "features": list(self.features()),
            "table": p.table if p.table in ("default", "bfc_communes") else "user",
            "p_unchanged": self.p_unchanged(value, self.ledger(context).epsilon_for(key)),
            "p_unchanged_of": "release",
        }
        chosen = self.ledger(context).draw(
            key, "exponential", parameters, lambda eps: self.choose(value, eps)
        )
        state.released[key] = chosen
        return styled(self.table().names[chosen], span.text)
