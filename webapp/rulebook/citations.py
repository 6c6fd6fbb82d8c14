""""Warum?": the rule sentence behind each step and each refusal, per game.

Every sentence is quoted word for word from the game's rule text (German; the
English translation is the message catalogue's, the German text is the authority);
``decision`` points to the project's decision that reads the text there. A refusal
with ``None`` has no rule behind it: the entry itself was malformed (a broken or
tampered tap), which the screens never send. Every step kind and every refusal code
the engine can raise must be listed here (tests/webapp/test_rulebook.py finds them).
"""
from __future__ import annotations

from dataclasses import dataclass



def quote(german: str) -> str:
    """Marks a sentence quoted from a rule text: the German original, and the message
    id of its translation (``gettext`` when shown; babel.cfg extracts ``quote``)."""
    return german


@dataclass(frozen=True)
class Why:
    sentences: tuple
    decision: int | None = None


MALFORMED = None

# --- Gemeinsame Sache ------------------------------------------------------------------
GS_SETUP_ASIDE = quote("Zählt die Karten für eure Stufe ab und legt sie ungesehen beiseite")
GS_FIRST_DISCARD = quote("Deckt die nächste Karte auf und legt sie in die Mitte: Damit beginnt der Ablagestapel.")
GS_YOUNGER = quote("Wer jünger ist, fängt an; danach seid ihr abwechselnd dran.")
GS_DRAW = quote("Ziehen: eine Karte nehmen – die oberste vom Ziehstapel oder die oberste vom Ablagestapel. "
             "Die vom Ablagestapel aber nur, wenn du sie noch im selben Zug auf den Tisch legst.")
GS_LAY = quote("Auslegen (freiwillig – so viel du willst, in beliebiger Reihenfolge)")
GS_DISCARD = quote("Ablegen: eine Karte offen auf den Ablagestapel legen. Ist deine Hand schon leer, entfällt das.")
GS_START = quote("Stattdessen legst du einen Ansatz aus: genau zwei Karten (kein Joker), aus denen mit einer "
              "weiteren Karte eine Figur wird")
GS_PARTNER = quote("Ergänzen kann sie nur dein Partner: Er legt eine passende dritte Karte aus seiner Hand dazu, "
                "auch einen Joker.")
GS_TWO_STARTS = quote("Jeder von euch darf höchstens zwei Ansätze gleichzeitig auf dem Tisch haben.")
GS_THREE_STARTS = quote("Drei Ansätze: Jeder darf drei statt zwei Ansätze auf dem Tisch haben")
GS_OWN_START = quote("An deinen eigenen Ansatz darfst du nichts anlegen, und zurücknehmen darfst du ihn auch nicht.")
GS_LAY_OFF = quote("An fertige Figuren dürft ihr beide weitere passende Karten anlegen – die 7♣ an 7♥ 7♠ 7♦ oder "
                "die 3♣ oder die 7♣ an 4♣ 5♣ 6♣.")
GS_SET_FULL = quote("Ein Satz hat höchstens vier Karten.")
GS_ACE = quote("In einer Folge darf das Ass unten oder oben stehen – A-2-3 und D-K-A gelten beide –, aber nicht "
            "„um die Ecke“: K-A-2 ist keine Folge.")
GS_JOKER = quote("Die beiden Joker sind Platzhalter: Sie können jede Karte ersetzen. Legst du einen Joker in eine "
              "Folge, sag dazu, für welche Karte er steht („Der Joker ist die 6♣“); in einem Satz steht er für eine "
              "beliebige fehlende Farbe.")
GS_SWAP = quote("Joker austauschen: Liegt in einer fertigen Figur ein Joker und du hast die echte Karte, für die er "
             "steht, leg sie an seine Stelle und nimm den Joker auf die Hand.")
GS_DECK = quote("Du brauchst: ein normales 52er-Blatt mit seinen 2 Jokern (54 Karten).")
GS_HAND = quote("Mischt alle 54 Karten und gebt jedem 10 Karten, verdeckt und einzeln. Das ist deine Hand – zeig sie "
             "deinem Partner nicht.")
GS_WIN = quote("Ihr gewinnt gemeinsam, sobald beide Hände leer sind und kein Ansatz mehr offen ist: Jede Karte auf "
            "dem Tisch gehört zu einer fertigen Figur.")
GS_LOSS = quote("Ihr verliert, wenn jemand ziehen muss, der Ziehstapel leer ist und er die oberste Karte vom "
             "Ablagestapel nicht auslegen kann. Der Ablagestapel wird nie als neuer Ziehstapel verwendet.")
GS_EMPTY_HAND = quote("Mit leerer Hand bist du nicht raus.")

GEMEINSAME_SACHE = {
    "step:setup": Why((GS_SETUP_ASIDE, GS_FIRST_DISCARD, GS_YOUNGER), 1),
    "step:draw": Why((GS_DRAW,), 3),
    "step:act": Why((GS_LAY, GS_DISCARD)),
    "as-without-joker": Why((GS_JOKER,)),
    "bad-as": Why((GS_JOKER,)),
    "card-seen": Why((GS_DECK,), 2),
    "discard-empty": Why((GS_DRAW,)),
    "discard-not-layable": Why((GS_DRAW,), 3),
    "discard-required": Why((GS_DISCARD,)),
    "does-not-complete": Why((GS_PARTNER, GS_ACE)),
    "does-not-fit": Why((GS_LAY_OFF, GS_ACE)),
    "game-over": Why((GS_WIN, GS_LOSS)),
    "hand-empty": Why((GS_DISCARD, GS_EMPTY_HAND)),
    "joker-does-not-fit": Why((GS_JOKER,), 5),
    "joker-in-start": Why((GS_START,)),
    "joker-needs-as": Why((GS_JOKER,)),
    "no-joker-for-card": Why((GS_SWAP,), 5),
    "not-a-start": Why((GS_START, GS_ACE)),
    "not-in-hand": Why((GS_HAND,)),
    "own-start": Why((GS_OWN_START, GS_PARTNER)),
    "pickup-not-laid": Why((GS_DRAW,), 3),
    "pile-empty": Why((GS_LOSS,), 4),
    "set-full": Why((GS_SET_FULL,)),
    "start-needs-two": Why((GS_START,)),
    "still-a-start": Why((GS_PARTNER, GS_LAY_OFF)),
    "swap-needs-real-card": Why((GS_SWAP,)),
    "third-joker": Why((GS_DECK,)),
    "too-many-starts": Why((GS_TWO_STARTS, GS_THREE_STARTS)),
    "wrong-step": Why((GS_DRAW, GS_LAY, GS_DISCARD)),
    "bad-card": MALFORMED, "bad-id": MALFORMED, "bad-player": MALFORMED, "bad-source": MALFORMED,
    "missing-field": MALFORMED, "no-such-figure": MALFORMED, "no-such-start": MALFORMED,
    "not-started": MALFORMED, "unknown-event": MALFORMED,
}

# --- Gleich und gleich -----------------------------------------------------------------------
GG_ROWS = quote("Reihen: Leg 4 Reihen zu je 3 Karten offen in die Mitte. Die drei Karten einer Reihe müssen drei "
             "verschiedene Arten sein.")
GG_ROW_DOUBLE = quote("Kommt in eine Reihe eine zweite Karte einer Art, die schon darin liegt, leg sie auf den "
                   "Ablagestapel (einen offenen Stapel neben dem Ziehstapel) und leg eine neue Karte an, bis jede "
                   "Reihe drei verschiedene Arten hat.")
GG_HANDS = quote("Handkarten: Jeder bekommt 8 Karten verdeckt.")
GG_COLLECTION = quote("Sammlungen: Jeder bekommt außerdem eine Karte offen.")
GG_DECK = quote("Du brauchst: zwei 52er-Blätter ohne Joker (104 Karten).")
GG_SPECIES = quote("Die Zahlenkarten bilden paarweise fünf häufige Arten: Eine 3 und eine 4 sind derselbe Vogel, eine "
                "9 und eine 10 auch.")
GG_TWO_STEPS = quote("Dein Zug hat zwei Schritte: Erst musst du Karten ausspielen, dann darfst du einen Schwarm "
                  "heimfliegen lassen.")
GG_PLAY = quote("Wähl eine Art auf deiner Hand und spiel alle Karten dieser Art aus – du darfst keine zurückhalten.")
GG_ENDS = quote("Leg sie nebeneinander an das linke oder rechte Ende einer Reihe. Du darfst jede Reihe wählen, egal "
             "welche Arten darin liegen.")
GG_DRAW = quote("Dann darfst du, wenn du willst, die obersten 2 Karten des Ziehstapels auf die Hand nehmen.")
GG_REFILL = quote("Reihe auffüllen: Liegt in einer Reihe direkt nach dem Schnappen nur noch eine einzige Art, deckt ihr "
               "Karten vom Ziehstapel einzeln auf und legt jede an eines der beiden Enden dieser Reihe, bis sie zwei "
               "verschiedene Arten enthält.")
GG_FLOCK_SHOW = quote("Um einen Schwarm heimfliegen zu lassen, zeigst du alle deine Karten einer Art vor.")
GG_FLOCK_ONE = quote("Du darfst pro Zug nur einen Schwarm heimfliegen lassen und musst es nie. Eine Art, von der du "
                  "nicht genug für einen kleinen Schwarm hast, darfst du nicht vorzeigen.")
GG_DEAL = quote("Wer seine Hand geleert hat, wird neuer Geber. Er gibt jedem 8 neue Karten vom Ziehstapel und beginnt "
             "die neue Runde.")
GG_WIN = quote("Wer als Erster 7 verschiedene Arten in seiner Sammlung hat oder 2 Arten mit mindestens je 3 Karten, "
            "gewinnt sofort.")
GG_NO_DEAL = quote("Wenn nichts mehr geht: Kann der neue Geber nicht jedem 8 Karten geben, auch nicht nach dem Mischen "
                "des Ablagestapels, endet das Spiel sofort.")

# --- CuBirds --------------------------------------------------------------------------------
CB_ROWS = quote("Jede Reihe muss 3 Vögel unterschiedlicher Art enthalten. Kommt dabei ein Vogel in einer Reihe doppelt "
             "vor, lege die doppelte Karte auf den Ablagestapel und ersetze sie durch eine neue Karte vom Stapel, bis "
             "in jeder Reihe 3 unterschiedliche Vögel liegen.")
CB_HANDS = quote("Teile dann allen Mitspielenden verdeckt je 8 Vogelkarten vom Nachziehstapel als Starthand aus.")
CB_COLLECTION = quote("Teile dann allen 1 weitere Vogelkarte aus, die alle offen vor sich ablegen. Dies ist der erste "
                   "Vogel in eurer Sammlung.")
CB_COUNT = quote("Die Zahl unten links auf jeder Karte zeigt an, wie oft die Karte im Spiel vorkommt.")
CB_TURN = quote("Wenn du an der Reihe bist, musst du eine oder mehrere Vogelkarten anlegen und darfst anschließend einen "
             "Schwarm ausspielen.")
CB_PLAY = quote("Wähle eine Vogelart in deiner Hand und lege dann alle Karten dieser Art an. Entscheide dich für eine der "
             "4 Reihen und lege alle Vögel nebeneinander entweder links oder rechts an der gewählten Reihe an.")
CB_DRAW = quote("In diesem Fall nehmt ihr keine Karten aus der Tischmitte und dürft stattdessen 2 Karten vom "
             "Nachziehstapel ziehen; auch dann noch, wenn ihr keine Karten mehr auf der Hand habt.")
CB_REFILL = quote("Wenn in der Reihe, aus der du Vögel auf deine Hand genommen hast, nur noch Vögel genau einer Art "
               "übrig sind, fülle die Reihe mit neuen Vögeln vom Nachziehstapel auf.")
CB_REFILL_CONFIRM = quote("Wenn eine Reihe nach dem Nehmen von Vögeln nur noch eine Art enthält, musst du das "
                       "Vervollständigen der Reihen explizit bestätigen, da es nicht rückgängig gemacht werden kann.")
CB_FLOCK_SHOW = quote("Möchtest du einen Schwarm ausspielen, musst du alle Vögel dieser Art, die du auf der Hand hältst, "
                   "offen vorzeigen.")
CB_FLOCK_SMALL = quote("Du darfst keine Vögel vorzeigen, wenn du nicht mindestens einen kleinen Schwarm ausspielen "
                    "kannst.")
CB_NO_FLOCK = quote("Auch wenn du keinen Schwarm ausspielen kannst, musst du dies explizit überspringen, da ein "
                 "automatisches Überspringen deinem Gegner zusätzliche Informationen über deine Handkarten geben "
                 "würde.")
CB_DEAL = quote("Wer von euch die Runde auf diese Weise beendet hat, teilt nun 8 neue Karten vom verdeckten "
             "Nachziehstapel an alle aus.")
CB_ROBIN = quote("RobinBird zieht in ihrem Zug für jede Reihe eine Karte vom Nachziehstapel und legt sie an der rechten "
              "Seite an, zieht also insgesamt 4 Karten.")
CB_WIN = quote("Hast du am Ende deines Zuges entweder 7 verschiedene Vogelarten in deiner Sammlung oder jeweils "
            "mindestens 3 Vögel von 2 verschiedenen Arten, gewinnst du das Spiel.")
CB_NO_DEAL = quote("Das Spiel endet ebenfalls, wenn ihr zu Beginn einer neuen Runde keine 8 Karten mehr an alle "
                "austeilen könnt , selbst nachdem ihr den Ablagestapel zu einem neuen Nachziehstapel gemischt habt.")


def _birds(s: dict) -> dict:
    """The bird engine's steps and refusals, with one game's sentences (``s``)."""
    return {
        "step:setup": Why((s["rows"], s["hands"], s["collection"]), 0),
        "step:play": Why((s["play"],)),
        "step:refill": Why((s["refill"],), s["refill_decision"]),
        "step:draw": Why((s["draw"],)),
        "step:flock": Why(s["flock"], 5 if s["cubirds"] else None),
        "step:deal": Why((s["deal"],)),
        "step:robin-draw": Why((CB_ROBIN,), 4),
        "card-exhausted": Why((s["count"],), None if s["cubirds"] else 1),
        "deck-too-small": Why((s["no_deal"],)),
        "flock-too-small": Why(s["flock"]),
        "game-over": Why((s["win"], s["no_deal"])),
        "mixed-species": Why((s["play"],)),
        "must-include-known": Why((s["play"], s["flock"][0])),
        "no-cards": Why((s["play"],)),
        "not-in-hand": Why((s["hands"],)),
        "not-now": Why((s["turn"],)),
        "row-species": Why((s["rows"],), 0),
        "setup-complete": Why((s["rows"],)),
        "setup-incomplete": Why((s["rows"], s["hands"], s["collection"])),
        "species-gone": Why((s["play"],)),
        "species-exhausted": Why((s["count"],), None if s["cubirds"] else 1),
        "setup-discard-species": Why((s["rows"],), 0),
        "kept-needs-rank": MALFORMED, "no-such-species": MALFORMED,
        "bad-cards": MALFORMED, "bad-count": MALFORMED, "bad-dealer": MALFORMED, "bad-rows": MALFORMED,
        "missing-field": MALFORMED, "no-such-card": MALFORMED, "no-such-row": MALFORMED, "no-such-side": MALFORMED,
        "not-solo": MALFORMED, "setup-empty": MALFORMED, "unknown-event": MALFORMED,
    }


GLEICH_UND_GLEICH = _birds({
    "cubirds": False, "rows": GG_ROWS, "hands": GG_HANDS, "collection": GG_COLLECTION, "play": GG_PLAY,
    "refill": GG_REFILL, "refill_decision": 4, "draw": GG_DRAW, "flock": (GG_FLOCK_SHOW, GG_FLOCK_ONE),
    "deal": GG_DEAL, "count": GG_SPECIES, "no_deal": GG_NO_DEAL, "win": GG_WIN, "turn": GG_TWO_STEPS,
}) | {"step:play": Why((GG_PLAY, GG_ENDS)), "row-species": Why((GG_ROWS, GG_ROW_DOUBLE), 0),
      "card-exhausted": Why((GG_DECK, GG_SPECIES), 1), "species-exhausted": Why((GG_DECK, GG_SPECIES), 1),
      "setup-discard-species": Why((GG_ROWS, GG_ROW_DOUBLE), 0)}
GLEICH_UND_GLEICH.pop("step:robin-draw")

CUBIRDS = _birds({
    "cubirds": True, "rows": CB_ROWS, "hands": CB_HANDS, "collection": CB_COLLECTION, "play": CB_PLAY,
    "refill": CB_REFILL, "refill_decision": 2, "draw": CB_DRAW, "flock": (CB_FLOCK_SHOW, CB_FLOCK_SMALL, CB_NO_FLOCK),
    "deal": CB_DEAL, "count": CB_COUNT, "no_deal": CB_NO_DEAL, "win": CB_WIN, "turn": CB_TURN,
}) | {"step:refill": Why((CB_REFILL, CB_REFILL_CONFIRM), 2)}

# Refusals of the engine's common part (engine/game.py), for every game.
COMMON = {"bad-event": MALFORMED, "nothing-to-undo": MALFORMED}

WHY = {"gemeinsame-sache": GEMEINSAME_SACHE | COMMON, "gleich-und-gleich": GLEICH_UND_GLEICH | COMMON,
       "cubirds": CUBIRDS | COMMON}