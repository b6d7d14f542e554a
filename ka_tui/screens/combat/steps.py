"""What the close-combat screen shows at each step (S0 §Close combat 1-6),
as one ``StepView`` built from the runner: the step bar, the fighters, the
step's pane, the dice field, the status line and where the keys go.
Presentation only: every figure comes from the runner and the engine's
result objects (``report.py`` draws them)."""

from __future__ import annotations

from dataclasses import dataclass, replace

from textual.content import Content

from ka_tui.rules.core.options import HouseRules
from ka_tui.rules.core.skills import pool_text
from ka_tui.rules.cqc import Fighter
from ka_tui.rules.cqc.initiative import initiative_test
from ka_tui.rules.cqc.log import FightProgress, FightStep, card_order, cards_in_text
from ka_tui.screens.combat.report import (
    damage_lines,
    fighter_lines,
    initiative_lines,
    odds_lines,
    preview_lines,
    resolve_lines,
    revealed_lines,
)
from ka_tui.screens.combat.runner import CombatRunner
from ka_tui.widgets.cqc_draft import CardDraft

Lines = tuple[Content, ...]


@dataclass(frozen=True)
class StepView:
    """One step on screen; a field left None keeps what is shown."""

    title: str
    bar: int                        # the step marked on the bar (0: no fight)
    fighters: Lines | None          # one line per fighter (None: the strip hidden)
    status: str | None = None
    error: bool = False
    info: Lines | None = None       # the step's pane (None: the card pane, or as it was)
    count: Content | None = None    # over the card pane, never scrolled away: cards in
    note: Lines | None = None       # above the card: the order of combat rolled
    card: CardDraft | None = None   # the card to fill in (step 2)
    dice: str | None = None         # the dice field's placeholder (None: hidden)
    hint: bool = False              # the status names the next die (step 4)
    focus: str = ""                 # "dice", "card", "blank" (the pane) or "" (as it was)
    broken: str = ""                # a damaged log: why (over the status, last)


def step_view(runner: CombatRunner, *, ascii_glyphs: bool) -> StepView:
    p, step = runner.progress, runner.step
    if p is None or step is None:
        return StepView(
            "Close combat", 0, None, "n: new fight",
            info=(Content("No fight in progress.").stylize("bold"),
                  Content("Press n to start one: pick pairs of opponents from the roster. "
                          "l lists earlier fights.")))
    title = f"Close combat · {p.name} · round {runner.round_no}"
    draw = _Steps(runner, p, title, ascii_glyphs)
    view = {FightStep.ORDER: draw.order, FightStep.PLAN: draw.plan,
            FightStep.REVEAL: draw.reveal, FightStep.ROLL: draw.roll,
            FightStep.RESOLVE: draw.resolve, FightStep.DAMAGE: draw.damage}[step]()
    if p.broken:  # a damaged log: shown up to its first bad event
        view = replace(view, broken=broken_note(p))
    return view


def broken_note(p: FightProgress) -> str:
    return f"Cannot read the whole fight: {p.broken}. u: undo back to before it."


def _lines(lines: list[Content]) -> Lines:
    return tuple(lines)


def _test_of(f: Fighter, rules: HouseRules) -> str:
    """S0 §Close combat 1: Combat Initiative, or the Active Agility test."""
    test = initiative_test(f, rules)
    return f"{test.skill} {test.number}: {pool_text(test.pool)}"


class _Steps:
    def __init__(self, runner: CombatRunner, p: FightProgress, title: str,
                 ascii_glyphs: bool) -> None:
        self.runner, self.p, self.title, self.ascii = runner, p, title, ascii_glyphs

    def _fighters(self, **kw: object) -> Lines:
        return _lines(fighter_lines(self.p.fight, ascii_glyphs=self.ascii, **kw))  # type: ignore[arg-type]

    def order(self) -> StepView:
        p = self.p
        if p.initiative is not None:
            return self._reorder()
        lines = [Content("Step 1: the order of combat (S0 §Close combat 1)").stylize("bold"),
                 Content("Each tests Combat Initiative, or Agility without it; the table "
                         "rolls, in this order:")]
        lines += [Content(f"  {f.name}: {_test_of(f, p.rules)}") for f in p.start.fighters]
        lines.append(Content("Press r to roll, or type the faces (then d12 roll-offs on a "
                             "tie).").stylize("$text-muted"))
        return StepView(self.title, FightStep.ORDER, self._fighters(),
                        "r: roll the order of combat · f: type the table's faces",
                        info=_lines(lines), dice="initiative faces, or r to roll",
                        focus="dice")

    def _reorder(self) -> StepView:
        """S0 §Close combat 1 again, at the start of a later round."""
        fight = self.p.fight
        rule = self.p.rules.cqc.initiative_reroll.value
        lines = [Content(f"Step 1: the order of combat for round {fight.round} "
                         "(S0 §Close combat 1)").stylize("bold"),
                 Content(f"Rolled again (house rule cqc.initiative_reroll={rule}). "
                         "The table rolls, in this order:")]
        lines += [Content(f"  {fight.fighter(fid).name}: "
                          f"{_test_of(fight.fighter(fid), self.p.rules)}")
                  for fid in card_order(fight)]
        lines.append(Content("Press r to roll, or type the faces (then d12 roll-offs on a "
                             "tie).").stylize("$text-muted"))
        keep = " · o: keep the order" if self.runner.reordering else ""
        return StepView(self.title, FightStep.ORDER, self._fighters(),
                        f"r: roll the order of round {fight.round} · f: type the faces{keep}",
                        info=_lines(lines), dice="initiative faces, or r to roll",
                        focus="dice")

    def plan(self) -> StepView:
        p, runner = self.p, self.runner
        fight = p.fight
        waiting = runner.waiting()
        strip = self._fighters(entered=runner.entered(), waiting=waiting, show_cards=True)
        card = runner.card_to_fill()
        if waiting is None or card is None:
            return StepView(self.title, FightStep.PLAN, strip)
        with_order = (p.initiative is not None and p.order_round == fight.round
                      and not runner.moved_on)
        # who has sent a card (players at their own terminals), never what
        count = Content(cards_in_text(p) if not runner.moved_on else
                        f"0 of {len(card_order(fight))} cards in").stylize("bold")
        order = (initiative_lines(p.initiative, p.start)[-len(p.initiative.rolls):]
                 if with_order and p.initiative is not None else [])
        name = fight.fighter(waiting).name
        return StepView(self.title, FightStep.PLAN, strip,
                        f"{name}'s card · a d f s e c: row · b D S: grade · enter: hand in",
                        count=count, note=_lines(order), card=card, focus="card")

    def reveal(self) -> StepView:
        p = self.p
        fight = p.fight
        tick = "ok" if self.ascii else "✓"
        lines = [Content(f"Round {fight.round}: every card is in, face down "
                         "(S0 §Close combat 3)").stylize("bold")]
        lines += [Content(f"  {fight.fighter(fid).name}: card entered {tick}")
                  for fid in card_order(fight)]
        lines.append(Content("Press v (or enter) to reveal them all.").stylize("$text-muted"))
        return StepView(self.title, FightStep.REVEAL,
                        self._fighters(entered=tuple(p.cards), show_cards=True),
                        "v: reveal the cards · u: undo the round", info=_lines(lines),
                        focus="blank")

    def roll(self) -> StepView:
        p, runner = self.p, self.runner
        fight = p.fight
        lines = revealed_lines(fight, p.round_cards)
        lines += odds_lines(fight, runner.odds())
        for a, b, scenarios in runner.previews():
            lines += preview_lines(fight, a, b, scenarios)
        return StepView(self.title, FightStep.ROLL, self._fighters(), info=_lines(lines),
                        dice="the round's faces, or r to roll", hint=True, focus="dice")

    def resolve(self) -> StepView:
        p = self.p
        assert p.rolled is not None
        return StepView(self.title, FightStep.RESOLVE, self._fighters(),
                        "enter: on to the damage · t: dice detail · u: undo the round",
                        info=_lines(resolve_lines(p.fight, p.rolled, p.typed_dice,
                                                  detail=self.runner.detail)),
                        focus="blank")

    def damage(self) -> StepView:
        p = self.p
        lines = damage_lines(p.before_last or p.start, p.fight, p.reports[-1])
        if p.ended:
            lines.append(Content("The fight has ended; its outcome is on the roster.")
                         .stylize("bold"))
            lines += [Content(f"  {line}") for line in self.runner.outcome_lines()]
        elif p.over:
            lines.append(Content("The fight is over. Press enter to write K-points and taken "
                                 "weapons back to the characters.").stylize("bold"))
        else:
            lines.append(Content(f"Press enter for round {p.fight.round}.").stylize("$text-muted"))
        status = ("enter: end the fight" if p.over and not p.ended else
                  "n: new fight · l: fights" if p.ended else
                  "enter: next round · u: undo the round")
        return StepView(self.title, FightStep.DAMAGE, self._fighters(), status,
                        info=_lines(lines), focus="blank")
