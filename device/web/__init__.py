"""The table's own page: a phone at the table as a twin of the OLED and its four buttons.

`tabletop run` serves it beside the game loop, on its own thread (serving.py): the loop
publishes each new frame to the desk (desk.py) and never waits on the web; the page's
input lines go to the loop through the desk, in the simulator's one input language
(lines.py). Joining takes the code the OLED shows (joining.py); the page shows what the OLED
shows, the frame and its texts uncut (view.py), never a secret of the game.
"""
