"""The project's decisions (``texts/decisions.md``, English, the authority for what
the rule texts leave open) in German, item by item, for the German rule pages."""

DECISIONS_DE = {
    "gleich-und-gleich": (
        """1. **Die Tabelle der Vogelarten fehlt** im Text. Aus dem Text und den Kartenzahlen rekonstruiert:

   | Art | Karten | Anzahl | kleiner Schwarm | großer Schwarm |
   |---|---|---|---|---|
   | A–2 | jedes A und jede 2 | 16 | 5 | 7 |
   | 3–4 | | 16 | 5 | 7 |
   | 5–6 | | 16 | 5 | 7 |
   | 7–8 | | 16 | 5 | 7 |
   | 9–10 | | 16 | 5 | 7 |
   | B (Bube) | | 8 | 2 | 3 |
   | D (Dame) | | 8 | 2 | 3 |
   | K (König) | | 8 | 2 | 3 |

   Die Farben spielen nie eine Rolle. Jeden Wert gibt es 8-mal (2 Blätter × 4 Farben).
   Variante *Seltenere Seltene*: Schwärme aus B, D, K brauchen 3 und 4 Karten. Variante *Schnelles Spiel*: 6 verschiedene Arten (statt 7) oder zwei Arten mit je mindestens 3 Karten.""",
        """2. **Rundenende**: geprüft am Ende von Schritt 1 (nach dem freiwilligen Ziehen von 2 Karten) und nach einem Schwarm. Wer seine letzten Karten ausgespielt und nichts geschnappt hat, darf trotzdem noch 2 Karten ziehen (wie im Original, dem dieser Text in allem folgt, was er nicht ändert: „Alles andere folgt dem Vorbild"), und dann geht die Runde weiter. Wörtlich gelesen würde „nach dem Ausspielen in Schritt 1" die Runde vor diesem Ziehen beenden; wir folgen dem Original.""",
        """3. **Leerer Ziehstapel**: Wann immer eine Karte gebraucht wird (Auffüllen, 2 ziehen, Geben), wird zuerst der Ablagestapel zu einem neuen Ziehstapel gemischt. Sind beide leer, hört das Auffüllen einfach auf, und beim Ziehen nimmt man, was da ist.""",
        """4. **Seite beim Auffüllen**: Jede Auffüllkarte kommt an das Ende, das der Spieler wählt (sonst: rechts).""",
        """5. Die Prüfung auf einen Sieg am Ende jedes Zugs kommt zuerst; ein Sieg beendet das Spiel sofort, vor jedem Rundenende.""",
        """6. Spielende ohne Sieger: wenn der neue Geber nicht jedem 8 Karten geben kann, auch nicht nach dem Einmischen des Ablagestapels. Die meisten Karten in der Sammlung gewinnen; bei Gleichstand teilen sich diese Spieler den Sieg.""",
    ),
    "cubirds": (
        """0. **Ablage beim Aufbau** (beide Vogelspiele): Beim Auslegen der Reihen kommt eine Karte nur dann auf den Ablagestapel, wenn sie die zweite Karte einer Art ist, die schon in dieser Reihe liegt; eine Ablage beim Aufbau, deren Art in keiner Reihe liegt, wird abgelehnt.""",
        """1. Arten, Anzahlen und Schwarmgrößen: die Tabelle im Anhang des Textes (Flamingo 7 · 2/3, Eule 10 · 3/4, Tukan 10 · 3/4, Ente 13 · 4/6, Papagei 13 · 4/6, Elster 17 · 5/7, Teichrohrsänger 20 · 6/9, Rotkehlchen 20 · 6/9).""",
        """2. **Leerer Ziehstapel**: Der Text mischt den Ablagestapel beim Geben ein. Braucht das Auffüllen einer Reihe eine Karte und ist der Ziehstapel leer, wird ebenfalls gemischt (eine Reihe muss zwei Arten bekommen). Das freiwillige Ziehen von 2 Karten nimmt nur, was im Ziehstapel übrig ist, ohne zu mischen.""",
        """3. Alles andere wie bei Gleich und gleich oben (Rundenende, Reihenfolge der Siegprüfung, Spielende).""",
        """4. **Solo gegen RobinBird**, wie der Text es beschreibt: RobinBirds Hand liegt offen (der Begleiter kennt sie genau). In ihrem Zug zieht sie für jede Reihe eine Karte (Reihen der Reihe nach 1→4) und legt sie ans rechte Ende, oder ans linke, wenn sie dort echt mehr Karten schnappt; Geschnapptes kommt auf ihre offene Hand; die Reihen werden wie üblich aufgefüllt. Dann lässt sie jeden Schwarm fliegen, den sie kann (für jede Art mit mindestens einem kleinen Schwarm: 2 in ihre Sammlung bei einem großen Schwarm, sonst 1; der Rest auf den Ablagestapel). Wahlweise ein Vorsprung: zusätzliche Karten in ihrer Sammlung zu Beginn. Der Begleiter entscheidet alles für sie; am Tisch werden nur die aufgedeckten Karten eingetragen.""",
        """5. Die Hinweise des Textes zur digitalen Fassung gelten auch für den Begleiter: Das Auffüllen einer Reihe wird ausdrücklich bestätigt, und *kein Schwarm* ist immer eine ausdrückliche Wahl, nie automatisch übersprungen (das Überspringen würde den anderen etwas über deine Hand verraten).""",
    ),
    "gemeinsame-sache": (
        """1. **Die Tabelle der Schwierigkeitsstufen fehlt.** Gegeben: *Normal* legt 11 Karten beiseite (22 bleiben im Ziehstapel); der volle Stapel hat 33. Der Text berichtet von einer Simulation einer einfachen Strategie: Leicht ≈ 82 %, Normal ≈ 56 %, Schwer ≈ 31 % Siege, voller Stapel ≈ 94 %; bei Normal ≈ 24 Züge pro Spiel, in ≈ 5 davon wurde eine abgelegte Karte genutzt. **Die Größen des Ziehstapels für Leicht und Schwer hat unsere eigene Simulation dieser Strategie gefunden** (die Größen, deren Siegquote 82 % und 31 % am nächsten kommt), dokumentiert mit dem Lauf, der sie fand. Jede Größe von 1 bis 33 gibt es außerdem als *eigene Größe*. Der Text deutet an, dass bei Leicht etwas Reden erlaubt ist; da die Regel verloren ist, sagt der Begleiter dazu nichts.""",
        """2. Das Ass unten oder oben, nie um die Ecke (K-A-2 ist keine Folge). Variante *Ass unten*: das Ass nur unten. Eine Folge enthält jede Karte höchstens einmal (ein Blatt).""",
        """3. Eine vom Ablagestapel genommene Karte muss im selben Zug auf den Tisch (neuer Ansatz, Ergänzen des Ansatzes des Partners, Anlegen an eine Figur oder Tausch gegen einen Joker); der Zug kann nicht enden, solange sie noch auf der Hand ist. Anderes darf vorher ausgelegt werden: Das Nehmen ist erlaubt, wenn sie später im Zug noch gelegt werden *kann*, z. B. nachdem der Spieler den Ansatz des Partners mit einer eigenen Karte ergänzt oder eine Karte gelegt hat, die die genommene dann fortsetzt. Die Engine kennt die Hand nicht; sie lehnt beim Ziehen nur ab, was kein Auslegen in diesem Zug unterbringen könnte.""",
        """4. **Niederlage**: Ein Spieler muss ziehen, der Ziehstapel ist leer, und die oberste Karte des Ablagestapels lässt sich nicht auslegen. Das Team darf auch aufgeben, wenn sich ein Ansatz nicht mehr ergänzen lässt.""",
        """5. Ein Joker darf für eine Karte stehen, die anderswo liegt. Solange diese Karte in einer Figur oder einem Ansatz liegt, kann der Joker nicht ausgetauscht werden; eine Karte im Ablagestapel kann wieder nach oben kommen, genommen und eingetauscht werden. In einem Satz steht der Joker für eine beliebige fehlende Farbe (der Text: „in einem Satz steht er für eine beliebige fehlende Farbe"), eine angesagte Farbe bindet dort also nichts.""",
        """6. Varianten: *Offene Hände* (offene Hände, kein Reden), *Ass unten*, *Drei Ansätze* (drei offene Ansätze je Spieler).""",
    ),
}
# CuBirds' decision 0 is for both bird games (as in decisions.md).
DECISIONS_DE["gleich-und-gleich"] = DECISIONS_DE["cubirds"][:1] + DECISIONS_DE["gleich-und-gleich"]
