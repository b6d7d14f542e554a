"""Every reading of the seeds, in one table: where the code decides what the
seed's words leave open.

Each row quotes the seed (S0 = ``docs/rules/000_…txt``, R-x = the translation
``docs/rules/002_….en.md``; the tests check every quote against those files),
says what the code does and why. A row with ``option`` is a named house rule
(``rules/core/options.py``; the GM changes it on the settings screen, and
every option has a row); a row without one is a listed reading, the code's
fixed answer. ``docs/rules/READINGS.md`` is this table as Markdown
(``python -m ka_tui.rules.readings`` writes it; a test keeps the two equal).
The settings screen shows it (key ``g``).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Reading:
    where: str       # the seed section: "R-6", "S0 §Traits Glider"
    quote: str       # the seed's own words
    does: str        # what the code does
    why: str         # why this reading
    option: str = ""  # "section.name" of the house rule; "" = a listed reading

    @property
    def kind(self) -> str:
        return f"house rule {self.option}" if self.option else "reading"


R = Reading

# (title, rows), in the order of RULES-NOTES A-E and the campaign notes.
SECTIONS: tuple[tuple[str, tuple[Reading, ...]], ...] = (
    ("Skills and tests (S0 §Skills; RULES-NOTES A)", (
        R("S0 §Skills", "Number on a skill is used when determining successful result against "
          "magic 13 or opponents skill.",
          "Unopposed: each die succeeds when face + skill number + bonus >= 13; the test "
          "passes with at least one success and no critical fail; the successes are counted.",
          "The seed names the target, not how a pool of dice meets it: die by die, as an "
          "opposed test also reads it."),
        R("S0 §Skills", "Critical successes of smaller dice are canceled by normal and "
          "Critical successes of larger dice.",
          "A face equal to the die's maximum is a critical success and a success whatever it "
          "needs; in an opposed test each critical on a die of size s is cancelled by one "
          "opponent success on a die larger than s, larger criticals matched first.",
          "The seed's example (8 on a d8 beaten by 8 on a d10) is one for one; the order of "
          "matching only matters under crit_cancel = crit_only."),
        R("S0 §Skills", "For example roll of “8” on d8 will be beaten and negated by roll of 8 "
          "on d10.",
          "negate_die (default): the cancelled die counts for nothing; crit_only: it only "
          "loses its critical status.",
          '"beaten and negated" reads as the die undone, not just demoted.',
          "skills.crit_cancel"),
        R("S0 §Close combat 4", "If dice pool has more than one dice, Critical Fail may be "
          "negated by players Critical Success on other dice.",
          "seed (default): a 1 is a critical fail; each critical success on another die of the "
          "pool negates one; an unnegated 1 fails the test and loses an opposed round. "
          "all_ones: only when every die shows 1.",
          "As written; the softer reading is for a GM who finds a 1 on any of four dice too "
          "harsh.", "skills.crit_fail_rule"),
        R("S0 §Close combat 4", 'Do roll "12" or Critical Success automatically wins round.',
          "Off (default): a critical spent on negating a 1 is only a success and no longer "
          "wins automatically; on: it still does.",
          "A critical cannot both cancel the fail and win the round for free.",
          "skills.spent_crit_wins"),
        R("S0 §Close combat 4", "Consult Opposed test table for the number required to "
          "succeed and roll your d12 and/or other dice.",
          "Data table: each die succeeds when face >= 7 + (opponent skill - own skill), never "
          "below 2; a critical always succeeds. Editable; keys outside it clamp to its ends.",
          "The table is named, never given; 7+ at equal skills is the middle of a d12.",
          "skills.opposed_table"),
        R("S0 §Skills", "Subtract opponents skill number from yours, result is required level "
          "on Challenging test table.",
          "Data table: face >= 9 - (own skill - opponent skill), never below 2. When both "
          "skills are Legendary both sides use it.",
          "The Challenging table is not given; harder than the opposed table by 2.",
          "skills.challenging_table"),
        R("S0 §Skills", "Lore works same way as Active skill, but effects of this skill "
          "usually benefit others.",
          "On (default): a passed Lore test's successes give an ally +1 each on his next "
          "related test.", "One concrete way for a Lore test to benefit another.",
          "skills.lore_share_bonus"),
        R("S0 §Skills", "2 d10. Can be upgraded with +2 d10.",
          "An upgrade is a count per skill, bounded by its level's maximum (B 1, T 2, E 1, "
          "M 1, L 4).", "Each level names one upgrade; Legendary's \"any dice\" is its four."),
        R("S0 §Close combat 4", "In case of draw highest Close Combat skill wins. In case of "
          "another draw highest Agility wins.",
          "The dice roller's opposed rolls outside a close-combat round: the rolled skill's "
          "number, then Agility, then the d12 roll-off (default), the Close Combat skill as "
          "written, or straight to the roll-off.",
          "The seed's tie-breaks are for a close-combat round; any other opposed test "
          "compares the skill it rolled.", "roller.opposed_tiebreak"),
        R("S0 §Close combat 4", "In case of another annoying draw – roll off d12. Highest "
          "result wins.", "A roll-off that ties is rolled again until it does not.",
          "The seed's roll-off must end."),
    )),
    ("Close combat: the CQC card (S0 §Close combat; RULES-NOTES B)", (
        R("S0 §Close combat 1", "Determine order of combat by passing Combat Initiative "
          "test, if not available take Active Agility test.",
          "active (default): the Agility number as an Active test on the Basic pool 2d8; "
          "characteristic: one d12 on Agility, as fights before the option were played.",
          'S0 §Skills: "Active skill use their own number and levels for tests", and Basic '
          'is the "Basic ability of creatures to perform certain actions with minimal '
          'training": an Active test with no skill learnt.', "cqc.agility_test"),
        R("S0 §Close combat 1", "As a rules of thumb: the fastest goes first, strikes first "
          "and shoots first.",
          "The order of combat ranks the step-1 tests by ORDER_LADDER (rules/cqc/"
          "initiative.py): a critical fail last, a failed test below a passed one, more "
          "successes, the higher number of the skill tested, higher Agility, then a d12 "
          "roll-off among those still tied. A critical success counts as one success.",
          "Step 1 gives no ranking; step 4's tie-breaks (successes, Close Combat skill, "
          "Agility, roll-off) are the seed's own, read for the skill tested. A critical "
          "success wins a round, not a place: there is no round to win here."),
        R("S0 §Close combat 6", "Take Resistance test or Armour test if applicable, reduce AP "
          "or K-points and determine if combat ends or continues.",
          "gm_asks (default): the order is rolled at the start and again when the GM asks "
          "(key o); once; every_round. Only fighters still in a pairing roll again.",
          "The seed ties the order to speed, which rarely changes in a fight.",
          "cqc.initiative_reroll"),
        R("S0 §Close combat 2", "Each player is issued with CQC card, where he/she "
          "distributes AP of character between actions",
          "A new character's AP (6), a character attribute. Each round's pool = his AP - AP "
          "lost to Attacks in this fight + AP retained by Defence last round.",
          "The seed spends AP but never says how many there are or how they come back.",
          "cqc.default_ap"),
        R("S0 §Close combat 2", "Special - all AP",
          "A Special costs the whole current pool and is the only action on its card; "
          "special_min_ap (1) is the least pool it may be played with.",
          '"all AP" leaves nothing for a second action.', "cqc.special_min_ap"),
        R("S0 §Close combat 2", "If character has not spent all of his AP they are lost.",
          "Off (default): a fighter at 0 AP enters an empty card (he can still win the "
          "opposed round); on: 0 AP is out of the fight.",
          "The seed never says AP at 0 ends a fight; K-points do.", "cqc.zero_ap_is_out"),
        R("S0 §Close combat 2.1", "Special action beats all other actions against "
          "opponent(s) if you win the round of combat.",
          "On (default): a loser's Special cancels and is cancelled as a Deliberate; off: "
          "only a Special cancels it and it cancels nothing.",
          '"if you win": a losing Special beats nothing, but is still a big effort.',
          "cqc.losing_special_as_deliberate"),
        R("S0 §Close combat 2.1", "There basic actions are required to cancel one "
          "Deliberate action, if you win round of combat.",
          "Where a side can cancel in several ways it makes the best use of its actions: the "
          "most value cancelled (an Attack by its hits, a Feint by its bonus), then the "
          "fewest of its own actions used.", "The seed gives the rates, not the choice."),
        R("S0 §Close combat 4", "Defencive actions still block opponent's Attacks.",
          "On (default): the loser's Defence blocks the winner's Attacks too.",
          "Step 4 says a failed side's Defence still blocks; the Defence text says \"if you "
          "win\": this reading lets it block either way.", "cqc.loser_defence_blocks"),
        R("S0 §Close combat 2.2", "Each Basic Defencive action retains 1 AP from your pool of "
          "action points for next round if you lose current round of combat.",
          "On (default): a losing Defence that blocked an Attack also retains its AP.",
          "Both sentences apply to a loser; the seed does not make him choose.",
          "cqc.loser_defence_blocks_and_retains"),
        R("S0 §Close combat 4", "If Opposed test is failed, no Attacks reach target and no "
          "Evade has been made.",
          "On (default): a loser who passed his test still lands his uncancelled Attacks; one "
          "who failed lands none. His Evade, Disarm and Control need a win.",
          "Only a failed test stops Attacks in the seed's words.", "cqc.loser_attacks_land"),
        R("S0 §Close combat 4", "Feint is unaffected.",
          "The winner's Defence cancels the loser's Attacks, his Evade the loser's Attacks, "
          "Disarm and Control, his Feint the loser's Feint, a Special everything. Both sides "
          "failed: a stand-off (Feints count, Defences retain AP, nothing else); both rolled "
          "a critical fail: no action at all.",
          "RULES-NOTES B: one reading of who cancels whom for every way a round ends."),
        R("S0 §Close combat 2.2", "Each successful attack reduces opponent's AP by Strength "
          "of the attacker.",
          "1, 1, 1 (default): a successful Attack lands once whatever its grade, costing "
          "Strength AP or one save. 1, 2, 3 scales it like Feint and Defence.",
          "The seed's words; the grade decides what can cancel an Attack. Fights played under "
          "1, 2, 3 keep it (their log records it).", "cqc.attack_hits"),
        R("S0 §Close combat 2.2", "Successful attacks with weapons like knifes and guns will "
          "require opponent to take Resistance or Armour save.",
          "Off (default): a weapon hit calls for a save and costs no AP; on: it costs "
          "Strength AP as well.", "The seed names the save instead of the AP loss.",
          "cqc.weapon_attack_costs_ap"),
        R("S0 §Close combat 6", "Take Resistance test or Armour test if applicable",
          "A save is d12 + the stat against save_target (13); a failed save costs K-points "
          "equal to the weapon's damage; K-points at 0 is out of the fight.",
          'The seed\'s tests are "against magic 13"; the stat is added as a skill number is.',
          "cqc.save_target"),
        R("S0 §Close combat 2.2", "will require opponent to take Resistance or Armour save.",
          "armour_if_any (default): Armour when he wears any, else Resistance; best: the "
          "higher.", "Armour, when worn, is what a knife meets first.", "cqc.save_stat"),
        R("S0 §Close combat 2.2", "If you win the fight you choose to take any one the weapon "
          "from opponent's quick slots.",
          "On (default): one weapon a round however many Disarms are uncancelled. The weapon "
          "taken is the one the card names, else the most damaging (firearms first on a tie, "
          "then slot order).", '"any one" weapon; the GM names it on the card or the code '
          "takes the best.", "cqc.disarm_one_per_round"),
        R("S0 §Close combat 2.2", "Attempting to grab knife or firearm from opponent's hands "
          "to use it for greater good of humanity.",
          "On (default): a weapon taken by Disarm stays with the taker when the fight ends; "
          "off: back to its owner.", '"to use it": it is his now.', "cqc.disarm_keeps_weapon"),
        R("S0 §Close combat 2.2", "Alternatively you may disengage from combat by having at "
          "least one uncancelled Evade action and winning the round.",
          "On (default): a disengaging Evade still negates this round's Attacks, Disarm and "
          "Control.", '"Alternatively" could mean instead; an Evade that gets him away still '
          "made him hard to hit.", "cqc.disengage_still_negates"),
        R("S0 §Close combat 2.2", "add bonus to your Close Combat Skill for duration of the "
          "fight with this opponent.",
          "On (default): Feint bonuses count in the \"highest Close Combat skill\" tie-break.",
          "The Feint bonus is part of his Close Combat skill against that opponent.",
          "cqc.feint_counts_in_tiebreak"),
        R("S0 §Close combat 2.1", "Special action beats all other actions against "
          "opponent(s)",
          "split (default): one card per opponent, the pool shared between them; each: one "
          "card applied in full against every opponent.",
          "The seed's \"opponent(s)\" allows several, but says nothing of the AP.",
          "cqc.multi_opponent"),
        R("S0 §Close combat 1", "GM determines initiative in order from fastest to slowest, "
          "starting with high speed vehicles, like aircraft, then goes to ground ranged "
          "combat, finishing with close combat.",
          "A mixed scene acts in three bands, aircraft, ground ranged, close combat; within a "
          "band by initiative successes, then Agility, then the order the GM added them.",
          "The last tie-break is the GM's; the seed is silent."),
        R("S0 §Close combat 4", "Determine who wins the round by passing Opposed Skill test",
          "agility (default): a fighter without Close Combat rolls one d12 on Agility; "
          "weapons: one d12 on the Weapons Base skill.",
          'S0 §Skills: an untrained ability is "rolled using one d12".',
          "cqc.untrained_close_combat"),
        R("S0 §Skills", "Brawl: 4 - when character is involved in fistfight he would roll d12, "
          "then add +4 to his result and consult table to see result.",
          "Which Passive skill helps in which kind of round (brawl: fistfight); when several "
          "apply, the highest counts (equal numbers: the first by name). It adds to each die; "
          "a 1 stays a critical fail.",
          '"adds its level": one skill to one test.', "cqc.passive_fight_skills"),
        R("S0 §Skills", "Passive Skill adds its level to roll on Base skill or "
          "Characteristics test.",
          "Off (default): a Passive adds only to the one d12 of a fighter without Close "
          "Combat; on: to each die of a Close Combat pool too.",
          "A Close Combat test is an Active skill's, not a Base or characteristics test.",
          "cqc.passive_with_close_combat"),
        R("S0 §Skills", "when character is involved in fistfight",
          "On (default): a round is a fistfight only when neither side's Attack uses a "
          "weapon; off: for a fighter whose own Attack uses none.",
          "A fistfight is one nobody brings a knife to.", "cqc.fistfight_both_unarmed"),
    )),
    ("Aircraft, traits and the flight card (S0 §Traits, §Flight card; RULES-NOTES C)", (
        R("S0 §Traits", "Number after trait indicates number of dice rolled to use this "
          "ability (if any).",
          "Accuracy, Bullet dodger, Robust, Zero-in and Critical take a count (the most dice, "
          "or hits for Critical, they act on a use); Bulky, Long range and Glider take none.",
          "The five that act on dice have dice to count."),
        R("S0 §Traits", "Critical: high calibre weapon automatically changes normal hit into "
          "critical hit.",
          "Up to the trait's number of normal hits per attack become critical; written "
          "without a number, this many (1).", "A count keeps Critical from making every hit "
          "critical.", "air.critical_default_count"),
        R("S0 §Traits", "Accuracy: armament concentrated around centre of the plane allows "
          "pilot to re-roll failed hits.",
          "firepower_dice (default): up to the count of Firepower dice that missed are "
          "rolled again; to_hit_roll: the failed 2d6 to-hit roll, once.",
          '"failed hits": hits that failed are Firepower dice.', "air.accuracy_mode"),
        R("S0 §Traits", "Robust: built to withstand heavy punishment, it may re-roll effect of "
          "critical or normal hit.",
          "reroll_hit_die (default): the Firepower die behind up to the count of hits, "
          "criticals first, is rolled again; reroll_location: each critical's location.",
          "The effect of a hit is whether it hits at all.", "air.robust_mode"),
        R("S0 §Traits", "Bulky: lumbering and heavy aircraft, may ignore effects of light arm "
          "and rough landing strips.",
          "Shots from aircraft with Firepower at most this (2) are light arms: their criticals "
          "become normal hits on a Bulky target.",
          "The seed names no calibre; light arms make few dice.",
          "air.bulky_light_arms_firepower"),
        R("S0 §Traits", "may ignore effects of light arm and rough landing strips.",
          "A Bulky aircraft lands without the modifier of an unprepared strip (+2), rough "
          "ground (+3) or open ground off a strip; water and forest still count.",
          'The "rough landing strips" of S0 read as R-10\'s rough surfaces; a heavy '
          "undercarriage does not help on water or in trees."),
        R("S0 §Traits", "Glider: superb flight characteristics allows plane to glide and "
          "remain under control after engine is disabled and no hull points left.",
          "On (default): a Glider at 0 hull glides on; the next hit destroys it.",
          '"no hull points left" and still flying.', "air.glider_survives_zero_hull"),
        R("S0 §Traits", "remain under control after engine is disabled and no hull points "
          "left.",
          "seed_and (default): a disabled engine or an empty tank alone takes no aircraft out "
          "of control (only both with no hull, which destroys any other), and an empty tank "
          "gives no thrust points; either: a non-Glider is out of control once its engine is "
          "disabled or its tank empty, as battles before the option were played.",
          "The seed's \"and\"; R-10 lands an aircraft with \"No thrust points available\" (+4), "
          "so losing the engine alone leaves a pilot in control.", "air.engine_out_control"),
        R("R-1.4", "engine condition, fuel and ammunition left, airframe integrity",
          "An empty tank is a disabled engine: no thrust points (R-3.1), R-10's +4 for no "
          "thrust, R-7's \"cannot spend Thrust Points\".",
          "An engine without fuel gives no power; R-1.4 reports the two together."),
        R("S0 §Flight card", "Hull: number of hits plane may take before being destroyed",
          "Hull (S0) and airframe integrity (R-4) are one track; an aircraft is destroyed as "
          "soon as its hits reach its Hull (not later, as R-1.3 delays damage effects).",
          "The two seeds name the same thing; destruction is not an effect that waits."),
        R("R-6.1", "The damage is spread in blocks of 10 points over random locations",
          "Damage in points (R-6.1 crash, R-10 landing) is one hit per this many points (10); "
          "a part block is dropped.", "Both sources always give whole tens.",
          "air.points_per_hit"),
        R("R-6.1", "using the table for damage received from the nose.",
          "Data table (2d6 from the nose): 2 cockpit (pilot wounded at once), 3-4 engine (-1 "
          "thrust), 5 left wing, 6-8 fuselage, 9 right wing, 10 control surfaces (+1 "
          "piloting), 11 landing gear (one leg), 12 fuel tank (leak). Rear and side shots use "
          "it too.", "The table is named, not given.", "air.hit_locations"),
        R("R-6.1", "The damage is spread in blocks of 10 points over random locations",
          "On (default): hits made from points apply their location's effect as a critical "
          "would.", "A crash breaks what it hits.", "air.point_damage_effects"),
        R("R-10", "Four-engine craft cannot land on carriers unless fitted with special "
          "equipment and eternium engines.",
          "R-10's rows are 1, 2 and 4 engines (a profile has one of them); any other count "
          "takes the next larger row, more than four the four-engine row -- one answer for "
          "the landing speed, the strip and the carrier bar (aircraft.r10_row).",
          "A three-engine craft is nearer a four-engine one in size; one reading for every "
          "use of the table."),
    )),
    ("Hex air combat: the turn (R-1, R-2; RULES-NOTES D, E)", (
        R("R-1.1", "The side with the higher total wins the initiative.",
          "Tied sides roll again, among themselves, until they are ordered.",
          "Ties are not covered."),
        R("R-1.2", "Then the players of the side that lost initiative move and shoot.",
          "A pilot may send his plan from the start of the turn until his aircraft moves: the "
          "side moving second plans while the first moves and shoots (not in the heat and "
          "end phases).",
          'S0 says the flight model is X-wing\'s "planning the move, revealing and '
          'executing"; R-1.2 moves the sides one after the other and closes no plan early.'),
        R("R-8", "An aircraft evading may not attack that turn",
          "Each aircraft shoots or rams at most once a turn, in its side's shooting phase; an "
          "evasive manoeuvre is declared after its move.",
          '"move and shoot" (R-1.2) is one attack; R-8 takes it away.'),
        R("R-8", "This needs a successful piloting check.",
          "Off (default): an aircraft whose evasive check failed still may not attack.",
          "It flew the manoeuvre, badly.", "air.failed_evasive_may_shoot"),
        R("R-1.3", "Damage a unit receives is applied at once, but it only starts to take "
          "effect in that unit's own turn, in the shooting phase.",
          "Damage waits as pending until the end of its side's movement (the start of its "
          "shooting phase), then its effects count; a cockpit critical wounds the pilot at "
          "once (R-5).", "A wound is not a machine's effect."),
        R("R-1.4", "pilots who are in shock or unconscious may try to come round (see R-5).",
          "Every unconscious airman still alive in an aircraft still in the battle, crew "
          "included, rolls R-5's table in the end phase; an unconscious airman who is wounded "
          "again takes the wound unrolled.",
          "R-4 and R-5 wound the whole crew; he has no consciousness left to lose."),
        R("R-1.4", "fuel and ammunition left",
          "Fuel spent per turn in the end phase (1) and per fuel-tank effect in force (1).",
          "No rate is given.", "air.fuel_per_turn"),
        R("R-1.4", "fuel and ammunition left",
          "Fuel lost per turn for each fuel-tank critical in force (1).",
          "The hit-location table's leak needs a rate.", "air.fuel_leak_per_turn"),
        R("R-1.4", "fuel and ammunition left", "Ammunition spent per shot (1).",
          "No rate is given.", "air.ammo_per_shot"),
        R("R-1.4", "and possible weather conditions.",
          "Free text reported in every end-phase status line.", "No weather rules are given.",
          "air.weather"),
        R("R-1.4", "the GM tells the players the current state of their machine: engine "
          "condition",
          "On (default): the Engine Overheat modifier rises by 1 per turn of afterburner and "
          "falls by 1 per turn without; at heat_threshold (3) or more the engine must pass "
          "2d6 >= heat_base (4) + modifier in the heat phase or it is damaged (-1 thrust).",
          "R-3.5 raises the modifier and R-1.4 has a heat phase, but no heat scale is given.",
          "air.heat_enabled"),
        R("R-3.5", "the aircraft's Engine Overheat modifier rises by 1.",
          "The modifier at which the heat-phase roll starts (3).", "No scale is given.",
          "air.heat_threshold"),
        R("R-3.5", "This heats the engine strongly",
          "The heat-phase roll is 2d6 >= this (4) + the modifier.", "No scale is given.",
          "air.heat_base"),
    )),
    ("Hex air combat: movement (R-3, R-4, R-9; S0 §Altitude)", (
        R("S0 §Altitude explained", "Deck – close to ground to 1000 meters",
          "Altitude is an integer level, 0 the ground; this table names each level's echelon "
          "(one level each: 1 Deck ... 6 Edge).",
          "R-3.3 counts levels, S0 names bands; the mapping is data.", "air.echelon_of_level"),
        R("R-3.3", "Climbing one altitude level costs either two points of Speed or two "
          "Thrust Points.",
          "r3 (default): R-3.3 as written; s0: S0's \"move of 6\" per echelon, split over "
          "rounds.", "The seeds give two climbing models.", "air.altitude_model"),
        R("S0 §Changing altitude", "make a move of 6.",
          "Hexes per level under the S0 model (6).", "The seed's number, editable.",
          "air.s0_hexes_per_level"),
        R("R-3.3", "for every two or more levels of altitude lost the aircraft gains one "
          "point of Speed (up to a maximum of 12).",
          "per_two_levels (default): +1 per 2 levels lost; flat_once: +1 once 2 or more are "
          "lost. Never above the dive maximum (S0 \"Maximum movement achieved in dive\") or "
          "12.", "The original reads both ways.", "air.descent_gain"),
        R("R-3.3", "An aircraft that descends more than 2 levels at once must pass a piloting "
          "check with a penalty equal to the number of levels changed.",
          "step (default): one descent step of 3+ levels, penalty its levels; turn: 3+ lost "
          "over the turn, checked once. A failure leaves it out of control for the rest of "
          "the move, R-3.2's consequence (no landing either).",
          '"at once" is one step; the seed gives no consequence, R-3.2 gives the one for a '
          "failed piloting check.", "air.steep_descent_basis"),
        R("R-3.1", "how many hexes the aircraft or object must move.",
          "A plan flies exactly its speed unless it lands, flies a hammerhead or crashes; "
          "speed changed during the move (a climb paid in speed, descent gain, figures) "
          "changes the hexes still to fly; hexes a failure leaves unflown are flown straight "
          "ahead.", "\"must move\": no more and no fewer."),
        R("R-3.2", "As soon as speed drops to 0 the aircraft stalls",
          "Also in the middle of a move (a climb paid in speed), not only at the start of the "
          "turn.", "\"As soon as\"."),
        R("R-3.2", "If the piloting check fails, the aircraft cannot use thrust points, cannot "
          "change facing or altitude, and must move forward at its current speed.",
          "Out of control for any reason (R-5 unconscious pilot, damage under "
          "engine_out_control either) it flies so: no thrust, turn, climb, descent, figure, "
          "shot or ram, and rolls no Evasion dice. It may come down as a landing, R-10's "
          "automatic failure; only a failed stall check (or steep descent) forbids landing.",
          "R-5 says only \"goes out of control\"; R-3.2 says what that is; R-10 has a row for "
          "an out-of-control landing, so it must be possible."),
        R("R-3.2", 'the aircraft may make a random move ("in development" in the original).',
          "A d6 for the side (1-3 left, 4-6 right), then 1 to this many (2) hex sides.",
          "The seed's random move is unfinished.", "air.random_move_max_sides"),
        R("R-3.4", "must fly straight for the number of hexes given in its profile, which "
          "depends on its current speed",
          "A turn uses no hex: after the turn-mode number of straight hexes the aircraft "
          "turns one side in its hex; the run is carried across turns.",
          "\"(this may be spread over several turns)\"."),
        R("R-3.4", "which depends on its current speed",
          "current (default): the speed at the moment of the turn picks the band; start: the "
          "speed at the start of the movement.", "Speed may change during a move.",
          "air.turn_speed_basis"),
        R("R-3.6", "Fuel consumption rises, but the engine heats less.",
          "Fuel one water-methanol use costs (1).", "No amount is given.", "air.wm_fuel_cost"),
        R("R-3.5", "raises the Thrust Points available per turn.",
          "Afterburner and water-methanol are engaged before any thrust is spent or hex "
          "flown, once a turn each.", "They set the turn's thrust."),
        R("S0 §Altitude explained", "If it's presented with red or grey box, then flying on "
          "this altitude requires additional test from pilot and/or aircraft.",
          "A piloting check with this penalty (0) on climbing into such an echelon; a "
          "failure drops back a level.", "The test is named, not given.",
          "air.echelon_test_penalty"),
        R("S0 §Altitude explained", "requires additional test from pilot and/or aircraft.",
          "Off (default): the test is on climbing in only; on: again at the start of every "
          "turn spent there.", '"flying on this altitude" could be every turn.',
          "air.echelon_test_every_turn"),
        R("R-4", "takes 1 point of airframe integrity damage.",
          "That point is this many hull hits (1), no location.",
          "The whole airframe was strained.", "air.gload_airframe_hits"),
        R("R-4", "If the number of hex sides turned in one turn exceeds",
          "On (default): each figure's R-9 G-rating counts as sides turned.",
          "R-9 gives the figures a G-rating for this.", "air.figures_count_toward_gload"),
        R("R-9", "If the piloting roll fails, the aircraft moves forward half its current "
          "speed.",
          "Half rounds down; the hammerhead (\"Stays in the same hex\") ends the move.",
          "No rounding is given; a hammerhead flies no hex."),
    )),
    ("Hex air combat: landing and take-off (R-10)", (
        R("R-10", "To land, the player passes a piloting test with all applicable modifiers.",
          "To land, the aircraft is one level above the landing site's surface; it lands "
          "along its facing and stops at the end of the strip (crash-lands where it is).",
          "The approach height is not given; one level above is the lowest flight."),
        R("R-10", "On a failure the pilot may try to go around (if the margin of failure is "
          "no more than 3)",
          "A go-around keeps it in the air for the rest of the move. A pilot who declines it "
          "(LAND!) after a miss of 3 or less crash-lands at 10 points per point missed.",
          "The seed gives damage only for a greater miss; the same rate is the one at hand."),
        R("R-10", "Aircraft out of control | automatic failure (count the margin as 10)",
          "An aircraft out of control may land (not after a failed stall, R-3.2): the landing "
          "fails unrolled, margin 10, 100 points of damage, no go-around.", "As written."),
        R("R-10", "Landing on a carrier | +4",
          "The surface rows (prepared, unprepared, water, rough, forest, carrier) say what it "
          "lands on, one at a time: a carrier's +4 replaces a strip's surface modifier.",
          "RULES-NOTES D: a deck is not also a prepared strip."),
        R("R-10", "Over landing speed | +1 per point of speed above landing speed",
          "Counts from the size class's landing speed (3, 6, 4) unless the profile sets its "
          "own.", "The profile may know better."),
        R("R-10", "Strip too short for the aircraft | +2",
          "A strip narrower than the class's minimum width costs this (2; 0 ignores width).",
          "R-10's table gives widths but only a length modifier.", "air.narrow_strip_mod"),
        R("R-10", "Landing on rough ground | +3",
          "Open ground off any strip is landed on as rough ground (+3).",
          "Open ground is not a strip.", "air.open_ground_landing_mod"),
        R("R-10", "To take off, an aircraft must reach take-off speed",
          "On (default): it leaves the strip at its landing speed; off: at the run's length "
          "in hexes. Every profile carries its run (the shipped ones R-10's 4 and 6; other "
          "classes their own), flown on a strip or alike terrain.",
          "No take-off speed is given.", "air.takeoff_at_landing_speed"),
        R("R-10", "On a success the aircraft lands and stops at the end of the strip.",
          "On (default): off a strip (open ground, rough ground, water: no strip end) the "
          "aircraft rolls out as many hexes as the speed it lands at (none from speed 0), "
          "never past the alike terrain; off: to the end of the alike terrain, up to 12 hexes, "
          "as on a strip. On a strip or a deck it stops at the strip's end.",
          "Open ground has no end; a run to the map's edge after a landing at speed 0 is no "
          "landing.", "air.open_ground_rollout_by_speed"),
        R("R-10", "To take off, an aircraft must reach take-off speed",
          "A landed aircraft may, instead of or before its take-off, turn in place (any number "
          "of hex sides) and taxi up to 2 hexes ahead (default; 0 = never) on ground of one "
          "height inside the map; thrust, climbs and figures still wait for the take-off.",
          "R-10 gives a landed aircraft only the take-off, so one landed facing the map's edge "
          "or a short run could never fly again.", "air.ground_taxi_hexes"),
    )),
    ("Hex air combat: shooting, ramming, collisions (RULES-NOTES D; R-6, R-7, R-8)", (
        R("S0 §Altitude and combat", "Aircraft on same altitude may attack each other if "
          "target is in range.",
          "On (default): shots only at the same level; a shot from the Deck at a target on "
          "the ground (level 0) is a ground attack (S0 §Traits Zero-in).",
          "The seed's rule, with the GM's \"different idea\" as the option.",
          "air.same_altitude_only"),
        R("R-2", "The target number is formed mainly from the modified gunnery or piloting "
          "skill",
          "To hit: 2d6 >= gunnery + range band modifier + R-8 evasive + wounds and damage. "
          "Bands of this many hexes (2); the own hex is band 1.",
          "S0 gives Firepower, Evasion and Hull, R-2 the roll; RULES-NOTES D joins them.",
          "air.range_band_hexes"),
        R("R-2", "roll 2d6 with the relevant modifiers.", "Band modifiers 0, 1, 2.",
          "No range table is given.", "air.range_band_mods"),
        R("S0 §Traits", "Long range: armament allows pilot to fire beyond range 3.",
          "Beyond band 3 only with Long range, at this modifier (4).", "No modifier is given.",
          "air.long_range_mod"),
        R("S0 §Traits", "fire beyond range 3.", "Long range reaches this band (4).",
          '"beyond" needs an end.', "air.long_range_max_band"),
        R("S0 §Flight card", "Firepower: number of dice rolled when attacking with ranged "
          "weapon of plane",
          "Each Firepower d6 at this face (4) or more is a hit.", "The faces are not given.",
          "air.firepower_hit_on"),
        R("S0 §Flight card", "Firepower: number of dice rolled when attacking with ranged "
          "weapon of plane", "A Firepower die at this face (6) is a critical.",
          "S0 names critical hits; the top face.", "air.firepower_crit_on"),
        R("S0 §Flight card", "Evasion: number of dice rolled normally for evasive action in "
          "combat",
          "Each Evasion d6 at this face (4) or more cancels one hit, normal hits before "
          "criticals; a target out of control rolls none.",
          "The faces are not given; a dodge takes the glancing hits first.",
          "air.evasion_cancel_on"),
        R("S0 §Altitude explained", "flight model of Kings Angels is based on X-wing system",
          "Shots only into the forward arc of this many degrees (120: the three front hexes).",
          "X-wing has one; S0 names none.", "air.fire_arc_degrees"),
        R("R-2", "The target number is formed mainly from the modified gunnery or piloting "
          "skill", "+1 to hit per wound of the shooter.", "\"modified\": by what hurts him.",
          "air.gunnery_wound_mod"),
        R("R-2", "The target number is formed mainly from the modified gunnery or piloting "
          "skill", "+1 to hit per control-surface effect in force.",
          "As for piloting (hit-location table).", "air.gunnery_control_surface_mod"),
        R("R-8", "In combat, aircraft no larger than an attack aircraft (shturmovik) may fly "
          "an evasive manoeuvre", "Off (default): no shots at one's own side.",
          "The seeds never say.", "air.friendly_fire"),
        R("R-8", "Large ships may likewise fly anti-torpedo and anti-artillery manoeuvres",
          "Their manoeuvre adds this (2) to torpedo and artillery shots only.",
          "No number is given.", "air.anti_torpedo_mod"),
        R("R-7", "To ram, both units must be in the same hex",
          "Same hex and the same level; the ram is the attacker's attack for the turn; "
          "\"cannot spend Thrust Points\" is out of control or an engine disabled.",
          "S0: no shots across levels; the seed's own modifiers for the rest."),
        R("R-7", "6 + (target's Piloting skill − attacker's Piloting skill)",
          "ratings (default): piloting is a 2d6 rating, lower is better, so the difference "
          "is attacker's rating - target's; literal: as written.",
          "A better target pilot must make the ram harder.", "air.ram_skill_reading"),
        R("R-7", "Ramming", "Each side takes |speed difference| + this (2) hits.",
          "The damage is named, not given.", "air.ram_damage_extra"),
        R("R-7", "Ramming", "The rammer takes at least this (1).", "A ram always costs him.",
          "air.ram_rammer_min"),
        R("R-6", "If several objects are in one hex and one of them is out of control",
          "Only objects at the same level share a hex for R-6; grounded and downed ones do "
          "not count.", "S0: aircraft at other altitudes cannot even shoot at each other."),
        R("R-6", "roll 2d6 (one roll only, however many objects are in the hex)",
          "Rolled where a move ends (after the side's movement) and at every hex and level "
          "it passes through with another flying object there, once each; the mover counts "
          "out of control on its path if it was at its start or end.",
          "A collision can happen on the way; the path does not say when control was lost."),
        R("R-6", "On 10 or more if one or both objects are large ships",
          "10+ when any object in the hex is large.", "\"one or both\" of the colliding pair "
          "is not known before the roll."),
        R("R-6", "a collision with a random object happens.",
          "The out-of-control object (a die among several) hits a random other object (a "
          "die); both take |speed difference| + this (2) hits.",
          "The seed gives no damage; as a ram.", "air.collision_damage_extra"),
        R("R-6.1", "The player rolls 2d6 and multiplies by 10, then multiplies again by the "
          "craft's current speed",
          "Counted at least at this speed (1); the terrain crashes an aircraft at or below its "
          "height anywhere on the path.",
          "A stalled aircraft falling at speed 0 would take nothing.", "air.crash_min_speed"),
    )),
    ("The campaign between battles (house rules; the seeds stop at the end of a battle)", (
        R("R-5", "When a wound is taken, roll 2d6 and consult this table (by the total number "
          "of wounds now carried)",
          "One wound heals after this many days of rest (3), counted after waking up; 0: "
          "every wound heals once he is awake.",
          "The seeds count wounds and never heal them.", "campaign.heal_days_per_wound"),
        R("R-5", "The pilot may try to come round in the end phase of his turn",
          "An unconscious (not dead) character wakes after this many days (1).",
          "Coming round between battles is not in the seeds.", "campaign.wake_days"),
        R("S0 §Close combat 6", "reduce AP or K-points and determine if combat ends or "
          "continues.",
          "K-points come back this many a day of rest (2), up to the character's maximum.",
          "K-points are spent and never restored.", "campaign.k_points_per_day"),
        R("R-5", "If the result is below the number needed, the pilot loses consciousness",
          "The mission ready-check refuses a pilot with more wounds than this (2), the dead, "
          "the missing, the unconscious, and a person already flying another mission that "
          "day.", "R-5 lets a wounded pilot fly; a GM sends only the fit.",
          "campaign.fit_max_wounds"),
        R("S0 §Flight card", "Hull: number of hits plane may take before being destroyed",
          "Days of work per hull hit (1).", "The seeds say nothing on repairs.",
          "campaign.repair_days_per_hull_hit"),
        R("R-1.3", "Damage a unit receives is applied at once, but it only starts to take "
          "effect", "Days of work per location effect in force (2).",
          "The seeds say nothing on repairs.", "campaign.repair_days_per_effect"),
        R("S0 §Flight card", "Hull: number of hits plane may take before being destroyed",
          "Cost per hull hit (50) in the campaign's money.", "The seeds name no money.",
          "campaign.repair_cost_per_hull_hit"),
        R("R-1.3", "it only starts to take effect in that unit's own turn",
          "Cost per location effect (150).", "The seeds name no money.",
          "campaign.repair_cost_per_effect"),
        R("S0 §Flight card", "Hull: number of hits plane may take before being destroyed",
          "This many aircraft are repaired at once (2): the first open jobs of the queue, "
          "first come first served; a crew takes the next job when its own is done.",
          "A queue in the order the GM opened the jobs is the one he can foresee.",
          "campaign.repair_crews"),
        R("S0 §Flight card", "Hull: number of hits plane may take before being destroyed",
          "A repair of this share of the hull or more (75 %) is advised to be written off; "
          "the GM decides.", "The seeds say nothing on write-offs.",
          "campaign.write_off_percent"),
        R("R-1.4", "fuel and ammunition left",
          "On (default): each day that passes refuels and rearms every aircraft not lost, and "
          "its engine cools.", "Supply between battles is not in the seeds.",
          "campaign.rearm_each_day"),
        R("R-1.4", "the GM tells the players the current state of their machine: engine "
          "condition",
          "On (default): an engine cools once its battle ends (Engine Overheat modifier 0 in "
          "the campaign), so the next battle, the same day too, starts cool; off: the modifier "
          "the battle left carries into the next one (a new day still cools it under "
          "rearm_each_day).",
          "R-3.5 heats an engine turn by turn within a battle; between battles there is a "
          "landing, a wait and a take-off, longer than any turn.",
          "campaign.cool_between_battles"),
        R("R-6.1", "If an object ends up at the same altitude as a terrain feature, the "
          "aircraft crashes (unless it is landing).",
          "gm_asks (default): ending a battle in which an aircraft crashed (R-6.1, or a "
          "failed landing, R-10) asks the GM about each person aboard: as the battle left "
          "them, one wound more and unconscious, killed, or missing; nothing is written "
          "until each is answered. as_flown: only the crash's own hits count (a cockpit hit "
          "wounds the pilot).",
          "The seeds damage the aircraft and never say what a crash does to its crew; the "
          "GM knows where it came down.", "campaign.crash_crew"),
        R("R-5", "The pilot may try to come round in the end phase of his turn",
          "Healing is counted after waking: days spent unconscious heal nothing; a "
          "character carries his battle's wounds and consciousness into the campaign.",
          "Rest starts when he is awake."),
        R("R-1.3", "Damage a unit receives is applied at once",
          "A damaged aircraft with no open repair job may fly a mission (the ready-check "
          "refuses only the lost and those under repair); its damage flies with it.",
          "Whether to repair first is the GM's call, not a rule."),
        R("R-5", "6 | Dead",
          "Besides ready, wounded, unconscious and killed (R-5) a person may be missing "
          "(set by the GM): not ready, not healing, his days out still counting.",
          "A pilot shot down over enemy ground is neither dead nor home."),
        R("R-1.4", "the GM tells the players the current state of their machine",
          "The mission's own side: a mission's debrief, and the players' journal written "
          "from it, credit only the mission's own people and aircraft (its members and "
          "their aircraft; a crew member is credited through an own aircraft he flies in "
          "its battles). The other side's pilots and planes are left out; a victory is "
          "listed only when it involves the own side (an own pilot or aircraft downs, or "
          "is downed); a kill counts only for an own pilot, \"shot down by\" only for an "
          "own pilot downed.",
          "The seeds are silent on missions, debriefs and credited victories: they stop "
          "at the end of a battle. R-1.4 tells the players the state of their own "
          "machine; the debrief does the same for the mission's own side."),
    )),
    ("Suggested plans for the GM's aircraft (R-1.1; rules/air/tactics)", (
        R("R-1.1", "the GM rolls for every aircraft and ship he controls",
          "The air screen suggests a plan for an aircraft the GM flies under a named tactic: "
          "aggressive (every check of the plan passes at least 21/36, about 58 %), cautious "
          "(30/36, 83 %) or break off (26/36, 72 %). A plan is safe when it does not end in "
          "the terrain (R-6.1), does not stall now or at the next turn's start (R-3.2: "
          "speed 6 or more at the end), no check's failure would end the aircraft (R-4 "
          "airframe hits it has not the hull for) and its checks pass within that limit; "
          "when a safe "
          "plan exists only safe plans are suggested, else the one likeliest to pass. "
          "Nothing is rolled; the GM goes, edits or ignores it.",
          "The seeds leave the GM's own side to him; a risk limit a GM can read is the "
          "fewest words for how much a pilot dares."),
        R("R-1.1", "the GM rolls for every aircraft and ship he controls",
          "A pilot breaks off whatever his tactic with half his hull gone or less than two "
          "hull left, two wounds or more, unconscious, out of ammunition or with fuel for "
          "fewer than three turns; breaking off weighs the distance gained from every enemy, "
          "a level no enemy flies and a landing on a strip in reach (R-10).",
          "The seeds say nothing of when a pilot goes home; these are the points where a "
          "second hit or a second wound (R-5 5+) is likely to end him."),
        R("S0 §Altitude and combat", "Aircraft on same altitude may attack each other if "
          "target is in range.",
          "A suggestion weighs the shot it gets this turn at the enemy's present position "
          "(exact odds; R-1.2: the other side has moved or moves after) and the shots it "
          "leaves open: an enemy's close-range shot at it, times 1 in the enemy's arc, 0.5 "
          "outside it, 0.2 behind it; times 1 at the same level, 0.3 one level apart, none "
          "further or beyond the enemy's next move plus its range.",
          "Where the enemy will fly is its own choice; one level apart costs it two thrust "
          "(R-3.3) to climb into the shot."),
    )),
)

READINGS: tuple[Reading, ...] = tuple(r for _, rows in SECTIONS for r in rows)


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def markdown() -> str:
    """The table as ``docs/rules/READINGS.md``."""
    out = ["# Readings of the seeds", "",
           "Every place where the engine decides what the seeds do not say, in one table: "
           "the seed's own words (S0 = `000_eef22a3699908b4c.txt`, R-x = "
           "`002_cf897e368c97703a.en.md`), what the code does and why. A row with a house "
           "rule is a named option the GM changes on the settings screen (`s`, its default "
           "given here); a row marked *reading* is the code's fixed answer. Written from "
           "`ka_tui/rules/readings.py` (`python -m ka_tui.rules.readings > "
           "docs/rules/READINGS.md`); the tests check every quote against the seed files "
           "and that every house-rule option has a row.", ""]
    for title, rows in SECTIONS:
        out += [f"## {title}", "", "| Seed | Seed says | The code does | Why | Rule |",
                "|---|---|---|---|---|"]
        for r in rows:
            rule = f"`{r.option}`" if r.option else "reading"
            out.append(f"| {_cell(r.where)} | \"{_cell(r.quote)}\" | {_cell(r.does)} | "
                       f"{_cell(r.why)} | {rule} |")
        out.append("")
    return "\n".join(out)


def text_lines() -> list[str]:
    """The table as plain lines for a screen 80 columns wide."""
    out: list[str] = []
    for title, rows in SECTIONS:
        out += [title, ""]
        for r in rows:
            out += [f"{r.where} · {r.kind}", f"  Seed: \"{r.quote}\"", f"  Code: {r.does}",
                    f"  Why:  {r.why}", ""]
    return out


if __name__ == "__main__":
    print(markdown(), end="")
