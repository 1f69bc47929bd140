"""L'Auberge des pirates, laid out as every game is: state.py holds the game's metadata (components, phases,
house options and their rule ids), then its State, then the helpers that read it; prompts.py
holds what the table sees, each phase's prompt beside its hint in the order the phases come in
play, then the tally and the result; auberge.py holds the rules, setup first, then each phase in
play order, the phase table, the invariants, and registration (its GameSpec) last. The texts
are in texts_en.py and texts_fr.py, the house rules for docs/rules.md in rules.md, a demo in
demo.script, the deck's manifest in deck.toml.

The pirates deck, which A tribord! plays too, is in deck.py.
"""
