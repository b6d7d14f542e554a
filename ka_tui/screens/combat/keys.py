"""The close-combat screen's keys: every action a binding with an id (the
footer and the palette show them), and the palette's help line for each."""

from __future__ import annotations

from textual.binding import Binding, BindingType

BINDINGS: list[BindingType] = [
    Binding("r", "roll", "Roll", id="combat.roll"),
    Binding("f", "focus_dice", "Table dice", id="combat.dice"),
    Binding("enter", "card_done", "Card done", id="combat.card_done"),
    Binding("enter,v", "reveal", "Reveal", id="combat.reveal"),
    Binding("enter", "to_damage", "Damage", id="combat.to_damage"),
    Binding("enter", "next_round", "Next round", id="combat.next_round"),
    Binding("enter", "finish", "End fight", id="combat.finish"),
    Binding("u", "undo", "Undo", id="combat.undo"),
    Binding("u", "undo_refused", "Undo", show=False, id="combat.undo_refused"),
    Binding("y", "redo", "Redo", id="combat.redo"),
    Binding("h", "history", "History", id="combat.history"),
    # the same at step 2, out of the footer (the card's b D S need the room)
    Binding("h", "history_quiet", "History", show=False, id="combat.history_quiet"),
    Binding("o", "reorder", "Reorder", id="combat.reorder"),
    Binding("o", "reorder_refused", "Reorder", show=False, id="combat.reorder_refused"),
    Binding("t", "detail", "Dice detail", show=False, id="combat.detail"),
    Binding("n", "new_fight", "New fight", id="combat.new"),
    # at step 2 (the card's keys fill the footer) "n" stays, out of the footer
    Binding("n", "new_fight_quiet", "New fight", show=False, id="combat.new_quiet"),
    Binding("l", "list_fights", "Fights", show=False, id="combat.list"),
    Binding("ctrl+r", "reload", "Reload", show=False, id="combat.reload"),
    Binding("pageup", "page(-1)", "Page up", show=False, id="combat.page_up"),
    Binding("pagedown", "page(1)", "Page down", show=False, id="combat.page_down"),
]

PALETTE_HELP = {
    "combat.roll": "Roll the dice this step needs with the app's dice",
    "combat.dice": "Type the faces the table's physical dice show, then enter",
    "combat.card_done": "Hand in this combatant's card (refused while it is invalid)",
    "combat.reveal": "Reveal every card (S0 §Close combat 3) and show the odds",
    "combat.to_damage": "Go on to step 6: saves, AP and K-points lost, who is out",
    "combat.next_round": "Start the next round: new cards, the state carries on",
    "combat.finish": "End the fight and write K-points and taken weapons to the roster",
    "combat.detail": "Show or hide every die of the opposed tests with what it needed",
    "combat.undo": "Undo the last round (or the half-played one), after a yes; y redoes it",
    "combat.undo_refused": "Say why this fight cannot be undone (it has ended)",
    "combat.redo": "Put back the round just undone (until anything else is written)",
    "combat.history": "Every round of this fight, readable and exportable (text, Markdown)",
    "combat.history_quiet": "Every round of this fight, readable and exportable",
    "combat.reorder": "Re-roll the order of combat at the start of this round "
                      "(S0 §Close combat 1; house rule cqc.initiative_reroll); o again "
                      "keeps the order",
    "combat.reorder_refused": "Say why the order of combat cannot be re-rolled now",
    "combat.new": "Start a new fight: pick pairs of opponents from the roster",
    "combat.new_quiet": "Start a new fight: pick pairs of opponents from the roster",
    "combat.list": "Open another fight of this campaign",
    "combat.reload": "Read the fight from the campaign file again",
    "combat.page_up": "Scroll the report, odds or card up (also while typing dice)",
    "combat.page_down": "Scroll the report, odds or card down (also while typing dice)",
}
