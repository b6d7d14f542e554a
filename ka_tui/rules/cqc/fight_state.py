"""State of a close-combat fight (S0 §Close combat), as immutable data.

The round engine takes a ``Fight`` and returns the next one; the store keeps
a fight as a log of events and replays them (DESIGN.md). AP and K-points are
clamped at 0 in one place: ``Fighter.adjusted``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import asdict, dataclass, replace
from typing import Any

from ka_tui.rules.core.skills import Skill, pool_of


@dataclass(frozen=True)
class Weapon:
    """A weapon in a quick slot: what Disarm can take (S0 §2.2 Disarm) and
    what an armed Attack uses (S0 §2.2 Attack: a save, then K-points)."""

    name: str
    damage: int
    is_firearm: bool = False


@dataclass(frozen=True)
class Fighter:
    """One character in a fight.

    ``cc_pool`` is the Close Combat dice pool (die sizes, from the rules
    core's ``pool_of``) and ``cc_number`` its skill number. ``ap`` is what is
    left of ``ap_max`` after Attacks in this fight; ``ap_retained`` is what
    Defence kept from the last round (RULES-NOTES B), so the next card's pool
    is ``ap + ap_retained``. ``feint`` holds the Feint bonus to his Close
    Combat skill against each opponent (S0 §2.2 Feint). ``ci_pool`` /
    ``ci_number`` are his Combat Initiative skill; an empty pool means he has
    none and tests Agility (S0 §Close combat step 1). ``passives`` are his
    Passive skills as (name, number) and ``cc_untrained`` says his step-4 test
    is a Base skill or characteristic d12, not a Close Combat skill -- the
    test a Passive adds to (S0 §Skills, Passive; ``cqc.passive``).
    """

    id: str
    name: str
    strength: int
    agility: int
    cc_number: int
    cc_pool: tuple[int, ...]
    cc_legendary: bool = False
    resistance: int = 0
    armour: int = 0
    k_points: int = 10
    ap_max: int = 6
    ap: int = 6
    ap_retained: int = 0
    weapons: tuple[Weapon, ...] = ()
    feint: tuple[tuple[str, int], ...] = ()
    controlled_by: str | None = None
    disengaged: bool = False
    out: bool = False
    ci_pool: tuple[int, ...] = ()
    ci_number: int = 0
    passives: tuple[tuple[str, int], ...] = ()
    cc_untrained: bool = False

    @classmethod
    def new(cls, id: str, name: str, *, strength: int, agility: int, cc_number: int,
            cc_pool: Iterable[int], ap_max: int = 6, cc_legendary: bool = False,
            resistance: int = 0, armour: int = 0, k_points: int = 10,
            weapons: Iterable[Weapon] = (), ci_pool: Iterable[int] = (),
            ci_number: int = 0, passives: Iterable[tuple[str, int]] = (),
            cc_untrained: bool = False) -> Fighter:
        """A fighter at the start of a fight: full AP, no Feints, free."""
        return cls(id, name, strength, agility, cc_number, tuple(cc_pool), cc_legendary,
                   resistance, armour, k_points, ap_max, ap_max, 0, tuple(weapons),
                   ci_pool=tuple(ci_pool), ci_number=ci_number,
                   passives=tuple((str(n), int(v)) for n, v in passives),
                   cc_untrained=cc_untrained)

    @classmethod
    def from_skills(cls, id: str, name: str, *, close_combat: Skill,
                    combat_initiative: Skill | None = None, strength: int, agility: int,
                    **rest: Any) -> Fighter:
        """From the character's skills (rules core ``pool_of``, S0 §Skills):
        Close Combat for step 4, Combat Initiative (if any) for step 1."""
        ci = combat_initiative
        return cls.new(id, name, strength=strength, agility=agility,
                       cc_number=close_combat.number, cc_pool=pool_of(close_combat),
                       cc_legendary=close_combat.legendary,
                       ci_pool=pool_of(ci) if ci else (), ci_number=ci.number if ci else 0,
                       **rest)

    @property
    def pool(self) -> int:
        """RULES-NOTES B: this round's AP = AP max - AP lost + AP retained."""
        return self.ap + self.ap_retained

    @property
    def in_fight(self) -> bool:
        return not (self.out or self.disengaged)

    def feint_against(self, opponent: str) -> int:
        return sum(b for o, b in self.feint if o == opponent)

    def weapon(self, name: str | None) -> Weapon | None:
        return next((w for w in self.weapons if w.name == name), None)

    def adjusted(self, *, ap_lost: int = 0, k_lost: int = 0,
                 ap_retained: int | None = None) -> Fighter:
        """The one place AP and K-points change: both clamp at 0, AP at its max.

        S0 §2.2 Attack (AP loss), §6 (K-points); K-points at 0 is out of the
        fight (RULES-NOTES B).
        """
        ap = max(0, min(self.ap_max, self.ap - ap_lost))
        k = max(0, self.k_points - k_lost)
        kept = self.ap_retained if ap_retained is None else max(0, ap_retained)
        return replace(self, ap=ap, k_points=k, ap_retained=kept,
                       out=self.out or k == 0)

    def with_feint(self, opponent: str, bonus: int) -> Fighter:
        """S0 §2.2 Feint: the bonus lasts the rest of the fight with that opponent."""
        if bonus == 0:
            return self
        total = self.feint_against(opponent) + bonus
        rest = tuple((o, b) for o, b in self.feint if o != opponent)
        return replace(self, feint=tuple(sorted((*rest, (opponent, total)))))

    def to_dict(self) -> dict[str, Any]:
        out = asdict(self)
        out["cc_pool"] = list(self.cc_pool)
        out["ci_pool"] = list(self.ci_pool)
        out["weapons"] = [asdict(w) for w in self.weapons]
        out["feint"] = [[o, b] for o, b in self.feint]
        out["passives"] = [[n, v] for n, v in self.passives]
        return out

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Fighter:
        d = dict(data)
        d["cc_pool"] = tuple(d["cc_pool"])
        d["ci_pool"] = tuple(d.get("ci_pool", ()))
        d["weapons"] = tuple(Weapon(**w) for w in d.get("weapons", ()))
        d["feint"] = tuple((str(o), int(b)) for o, b in d.get("feint", ()))
        # A log from before Passive skills counted has neither: none counts.
        d["passives"] = tuple((str(n), int(v)) for n, v in d.get("passives", ()))
        d["cc_untrained"] = bool(d.get("cc_untrained", False))
        return cls(**d)


@dataclass(frozen=True)
class Pairing:
    """Two fighters locked in close combat; ``ended`` says why it is over."""

    a: str
    b: str
    ended: str | None = None

    @property
    def active(self) -> bool:
        return self.ended is None

    def has(self, fighter: str) -> bool:
        return fighter in (self.a, self.b)

    def other(self, fighter: str) -> str:
        return self.b if fighter == self.a else self.a

    @property
    def key(self) -> tuple[str, str]:
        return (self.a, self.b)


@dataclass(frozen=True)
class Fight:
    """Fighters, who faces whom, the round number and the order of combat
    (S0 §Close combat step 1; highest first)."""

    fighters: tuple[Fighter, ...]
    pairings: tuple[Pairing, ...]
    round: int = 1
    order: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        ids = [f.id for f in self.fighters]
        if len(set(ids)) != len(ids):
            raise ValueError("fighter ids must be unique")
        for p in self.pairings:
            if p.a == p.b or p.a not in ids or p.b not in ids:
                raise ValueError(f"pairing {p.a} vs {p.b} names an unknown fighter or the same one twice")
        keys = [frozenset(p.key) for p in self.pairings]
        if len(set(keys)) != len(keys):
            raise ValueError("a pair of fighters may be paired only once")

    @classmethod
    def start(cls, fighters: Iterable[Fighter],
              pairings: Iterable[tuple[str, str]]) -> Fight:
        fs = tuple(fighters)
        return cls(fs, tuple(Pairing(a, b) for a, b in pairings), 1, tuple(f.id for f in fs))

    def with_order(self, order: Iterable[str]) -> Fight:
        """The order of combat from ``initiative_order`` (S0 step 1), highest first."""
        new = tuple(order)
        if sorted(new) != sorted(f.id for f in self.fighters):
            raise ValueError("the order of combat must name every fighter once")
        return replace(self, order=new)

    def fighter(self, fighter_id: str) -> Fighter:
        for f in self.fighters:
            if f.id == fighter_id:
                return f
        raise KeyError(fighter_id)

    @property
    def active_pairings(self) -> tuple[Pairing, ...]:
        """Active pairings in the order of combat (S0 step 3: highest first)."""
        rank = {fid: i for i, fid in enumerate(self.order)}
        act = [p for p in self.pairings if p.active]
        return tuple(sorted(act, key=lambda p: (min(rank.get(p.a, len(rank)),
                                                     rank.get(p.b, len(rank))),
                                                 self.pairings.index(p))))

    def opponents_of(self, fighter_id: str) -> tuple[str, ...]:
        return tuple(p.other(fighter_id) for p in self.active_pairings if p.has(fighter_id))

    @property
    def over(self) -> bool:
        return not self.active_pairings

    def with_fighters(self, fighters: Iterable[Fighter]) -> Fight:
        new = {f.id: f for f in fighters}
        return replace(self, fighters=tuple(new.get(f.id, f) for f in self.fighters))

    def to_dict(self) -> dict[str, Any]:
        return {"fighters": [f.to_dict() for f in self.fighters],
                "pairings": [asdict(p) for p in self.pairings],
                "round": self.round, "order": list(self.order)}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Fight:
        return cls(tuple(Fighter.from_dict(f) for f in data["fighters"]),
                   tuple(Pairing(**p) for p in data["pairings"]),
                   int(data["round"]), tuple(data.get("order", ())))
