"""Every problem type the API sends, each documented at the URL its ``type`` names.

A problem's ``type`` is ``/problems/<slug>`` (RFC 9457 §3.1.1: a URI reference, resolved against the
URL that answered), so it is the same string on every server and behind every proxy, and a client
may compare it as it is; the server serves that page (:mod:`service.web.problem_pages`), in Czech,
Polish and English, with the members the type carries beside the standard ones.

A new problem type is a :class:`ProblemType` added to :data:`TYPES`; ``problems.problem`` sends
any slug, and ``tests/platform/test_problem_types.py`` fails while a slug the code sends has no entry.
"""

from __future__ import annotations

from dataclasses import dataclass, field

#: Where the problem pages live on the server, and so the start of every problem ``type``.
PREFIX = "/problems/"


@dataclass(frozen=True)
class ProblemType:
    status: int
    title: str
    #: What it means and what to do, by language (cs, pl, en).
    text: dict[str, str]
    #: The members beside ``type``, ``title``, ``status`` and ``detail`` it may carry.
    members: tuple[str, ...] = field(default=())
    #: What a player is told, by language (cs, pl, en): one short sentence with no API words, which
    #: the web client shows (``/problems/index.json``). Without it: the first sentence of ``text``.
    say: dict[str, str] = field(default_factory=dict)

    def words(self, lang: str) -> str:
        """The sentence a player reads in ``lang``."""
        return self.say.get(lang) or self.text[lang].split(". ")[0].split("; ")[0].rstrip(".") + "."


def uri(slug: str) -> str:
    """The ``type`` of a problem of this slug."""
    return PREFIX + slug


def _t(cs: str, pl: str, en: str) -> dict[str, str]:
    return {"cs": cs, "pl": pl, "en": en}


TYPES: dict[str, ProblemType] = {
    "game-not-found": ProblemType(
        404,
        "Unknown game",
        _t(
            "Hra s tímto id na serveru není. Zkontrolujte id z odpovědi na POST /games.",
            "Na serwerze nie ma gry o tym id. Sprawdź id z odpowiedzi na POST /games.",
            "No game with this id is on this server. Check the id the POST /games answer gave.",
        ),
        say=_t("Taková hra neexistuje.", "Nie ma takiej gry.", "No such game."),
    ),
    "unknown-game-type": ProblemType(
        404,
        "Unknown kind of game",
        _t(
            "Tento druh hry server nehostí; GET /catalog je vypíše.",
            "Serwer nie obsługuje tego rodzaju gry; GET /catalog je wymienia.",
            "This server hosts no such kind of game; GET /catalog lists the ones it does.",
        ),
        say=_t(
            "Tento server takovou hru nehostí.",
            "Ten serwer nie prowadzi takiej gry.",
            "This server hosts no such game.",
        ),
    ),
    "not-found": ProblemType(
        404,
        "Not found",
        _t(
            "Hra existuje, ale to, na co se ptáte, (zatím) ne, například skóre nedohrané hry.",
            "Gra istnieje, ale to, o co pytasz, (jeszcze) nie, np. wynik niedokończonej gry.",
            "The game exists, but what you asked for does not (yet), such as an unfinished game's score.",
        ),
        say=_t("Nenalezeno.", "Nie znaleziono.", "Not found."),
    ),
    "no-such-version": ProblemType(
        404,
        "No state at that version",
        _t(
            "Hra v této verzi žádný stav nemá: je za její současnou verzí, nebo před jejím rozdáním.",
            "Gra nie ma stanu w tej wersji: jest za jej bieżącą wersją albo przed jej rozdaniem.",
            "The game has no state at that version: it is past its current one, or before its set-up.",
        ),
        say=_t("Hra takový stav nemá.", "Gra nie ma takiego stanu.", "The game has no such moment."),
    ),
    "unauthorized": ProblemType(
        401,
        "Missing or unknown seat token",
        _t(
            "Pošlete Authorization: Bearer se žetonem místa, klíčem hráče nebo správcovským žetonem. "
            "Žeton, který byl vyměněn, a klíč, který byl obnoven, už neplatí.",
            "Wyślij Authorization: Bearer z żetonem miejsca, kluczem gracza lub żetonem administratora. "
            "Żeton, który wymieniono, i klucz, który odnowiono, już nie obowiązują.",
            "Send Authorization: Bearer with the seat token, the player key or the admin token it needs. "
            "A token that was reissued, or a key that was rotated, holds nothing any more.",
        ),
        say=_t(
            "Tento prohlížeč nemá v této hře žádné místo.",
            "Ta przeglądarka nie ma miejsca w tej grze.",
            "This browser holds no seat of this game.",
        ),
    ),
    "token-expired": ProblemType(
        401,
        "Expired seat token",
        _t(
            "Žeton místa už neplatí (hra skončila před dlouhou dobou); hru lze stále sledovat bez něj.",
            "Żeton miejsca już nie obowiązuje (gra skończyła się dawno); grę można oglądać bez niego.",
            "The seat token no longer holds (its game ended long ago); watch the game without it.",
        ),
        say=_t("Odkaz na místo vypršel.", "Link do miejsca wygasł.", "The seat's link has expired."),
    ),
    "not-your-turn": ProblemType(
        409,
        "Not your turn",
        _t(
            "Vaše místo teď nehraje; to_move ve stavu říká, kdo hraje. Počkejte (?wait=) a zkuste znovu.",
            "Twoje miejsce teraz nie gra; to_move w stanie mówi, kto gra. Poczekaj (?wait=) i spróbuj znowu.",
            "Your seat is not to move; the state's to_move says who is. Wait (?wait=) and try again.",
        ),
        say=_t("Nejsi na tahu.", "To nie twój ruch.", "It is not your turn."),
    ),
    "game-over": ProblemType(
        409,
        "The game is over",
        _t(
            "Hra skončila; příkazy už nepřijímá.",
            "Gra się skończyła; nie przyjmuje już poleceń.",
            "The game is over; it takes no more commands.",
        ),
        say=_t("Hra skončila.", "Gra się skończyła.", "The game is over."),
    ),
    "stale-version": ProblemType(
        409,
        "Stale version",
        _t(
            "expected_version není současná verze hry (ta je ve `version`); načtěte stav a zvolte znovu.",
            "expected_version nie jest bieżącą wersją gry (jest w `version`); wczytaj stan i wybierz znowu.",
            "expected_version is not the game's version (see `version`); read the state, choose again.",
        ),
        ("version",),
        say=_t(
            "Mezitím někdo táhl; deska se překreslí.",
            "Ktoś w międzyczasie wykonał ruch; plansza się odświeży.",
            "Someone moved meanwhile; the board is redrawn.",
        ),
    ),
    "illegal-move": ProblemType(
        422,
        "Illegal move",
        _t(
            "Pravidla tento příkaz teď nedovolují; co dovolují, vypíše GET /actions. Pole: `errors`.",
            "Zasady nie pozwalają teraz na to polecenie; dozwolone wymienia GET /actions. Pola: `errors`.",
            "The rules do not allow this command now; GET /actions lists what they do. Fields: `errors`.",
        ),
        ("errors",),
        say=_t(
            "Pravidla tento tah nedovolují.",
            "Zasady nie pozwalają na ten ruch.",
            "The rules do not allow this move.",
        ),
    ),
    "invalid-options": ProblemType(
        422,
        "Invalid game options",
        _t(
            "Volby neodpovídají schématu hry (GET /catalog/{game}, `options`); pole jmenuje `errors`.",
            "Opcje nie pasują do schematu gry (GET /catalog/{game}, `options`); pola wskazuje `errors`.",
            "The options do not fit the game's schema (GET /catalog/{game}: `options`); see `errors`.",
        ),
        ("errors",),
        say=_t(
            "Tato nastavení nebo místa k sobě nepasují.",
            "Te ustawienia lub miejsca do siebie nie pasują.",
            "These options or seats do not go together.",
        ),
    ),
    "idempotency-key-reused": ProblemType(
        422,
        "Idempotency-Key reused",
        _t(
            "Tento Idempotency-Key už nesl jiný příkaz; pro nový příkaz použijte nový klíč.",
            "Ten Idempotency-Key niósł już inne polecenie; do nowego polecenia użyj nowego klucza.",
            "This Idempotency-Key came with another command before; use a new key for a new command.",
        ),
        say=_t("Tento tah už byl odeslán.", "Ten ruch został już wysłany.", "This move was already sent."),
    ),
    "unknown-player": ProblemType(
        422,
        "Unknown player",
        _t(
            "Hráč s tímto id neexistuje.",
            "Gracz o tym id nie istnieje.",
            "No player has this id.",
        ),
        say=_t("Neznámý hráč.", "Nieznany gracz.", "Unknown player."),
    ),
    "seat-taken": ProblemType(
        409,
        "The seat belongs to another player",
        _t(
            "Místo už patří jinému hráči.",
            "Miejsce należy już do innego gracza.",
            "The seat belongs to another player already.",
        ),
        say=_t(
            "Místo patří jinému hráči.",
            "Miejsce należy do innego gracza.",
            "The seat belongs to another player.",
        ),
    ),
    "rematch-taken": ProblemType(
        409,
        "No rematch of this game can start",
        _t(
            "Odveta této hry už začala, nebo hra ještě neskončila.",
            "Rewanż tej gry już się zaczął albo gra jeszcze się nie skończyła.",
            "A rematch of this game has started already, or the game is not over.",
        ),
        say=_t("Odveta už začala.", "Rewanż już się zaczął.", "The rematch has started already."),
    ),
    "name-taken": ProblemType(
        409,
        "The name is taken",
        _t(
            "Toto jméno už má jiný hráč; jména se liší i jinak než velikostí písmen.",
            "To imię ma już inny gracz; imiona muszą się różnić nie tylko wielkością liter.",
            "Another player has this name already; names must differ in more than letter case.",
        ),
        say=_t("Toto jméno už má jiný hráč.", "To imię ma już inny gracz.", "Another player has this name."),
    ),
    "seat-not-open": ProblemType(
        409,
        "The seat cannot be taken",
        _t(
            "Místo není volné: někdo ho právě obsadil, hra začala, skončila nebo ji autor zrušil. "
            "GET /games?open=true ukáže hry, které na hráče čekají.",
            "Miejsce nie jest wolne: ktoś właśnie je zajął, gra się zaczęła, skończyła albo autor ją "
            "anulował. GET /games?open=true pokazuje gry czekające na graczy.",
            "The seat is not open: someone took it just now, or the game started, ended or was "
            "cancelled by its creator. GET /games?open=true lists the games waiting for players.",
        ),
        say=_t("Toto místo už není volné.", "To miejsce nie jest już wolne.", "This seat is no longer open."),
    ),
    "not-creator": ProblemType(
        403,
        "Not this game's creator",
        _t(
            "Čekající hru může zrušit jen hráč, který ji založil (jeho klíčem).",
            "Oczekującą grę może anulować tylko gracz, który ją założył (swoim kluczem).",
            "Only the player who created a waiting game may cancel it (with their key).",
        ),
        say=_t(
            "Čekající hru může zrušit jen ten, kdo ji založil.",
            "Czekającą grę może anulować tylko jej założyciel.",
            "Only its creator may cancel a waiting game.",
        ),
    ),
    "not-seat-holder": ProblemType(
        403,
        "Not this seat's holder",
        _t(
            "Žeton místa může vyměnit jen ten, kdo místo drží (jeho žetonem nebo klíčem hráče, "
            "který k němu patří), nebo hráč, který hru založil (svým klíčem).",
            "Żeton miejsca może wymienić tylko ten, kto zajmuje miejsce (jego żetonem albo kluczem "
            "gracza, który do niego należy), albo gracz, który założył grę (swoim kluczem).",
            "Only the seat's holder (with its token, or the key of the player bound to it) or the "
            "player who created the game (with their key) may reissue a seat's token.",
        ),
    ),
    "no-such-seat": ProblemType(
        404,
        "No such seat",
        _t(
            "Hra místo s tímto číslem nemá; místa jsou číslována od 0 (GET /games/{id} je vypíše).",
            "Gra nie ma miejsca o tym numerze; miejsca są numerowane od 0 (GET /games/{id} je wymienia).",
            "The game has no seat of this number; seats are numbered from 0 (GET /games/{id} lists them).",
        ),
    ),
    "seat-without-token": ProblemType(
        409,
        "The seat has no token",
        _t(
            "Místo bota nebo místo, které ještě čeká na hráče, žádný žeton nemá, a tak ho nelze vyměnit.",
            "Miejsce bota albo miejsce, które wciąż czeka na gracza, nie ma żetonu, "
            "więc nie można go wymienić.",
            "A bot's seat, or a seat still waiting for a player, has no token, so there is none to reissue.",
        ),
    ),
    "too-many-seeks": ProblemType(
        429,
        "Too many waiting seeks",
        _t(
            "Hráč může mít najednou jen několik čekajících hledání soupeře; "
            "zrušte některé (DELETE /seeks/{id}).",
            "Gracz może mieć naraz tylko kilka oczekujących szukań; anuluj któreś (DELETE /seeks/{id}).",
            "A player may have only a few seeks waiting at once; cancel one (DELETE /seeks/{id}).",
        ),
        say=_t(
            "Čekáš na soupeře už v příliš mnoha hrách.",
            "Czekasz na przeciwnika w zbyt wielu grach.",
            "You are waiting for opponents in too many games.",
        ),
    ),
    "seek-closed": ProblemType(
        409,
        "The seek no longer waits",
        _t(
            "Hledání už nečeká: bylo spárováno, zrušeno nebo vypršelo; GET /seeks/{id} řekne které.",
            "Szukanie już nie czeka: zostało sparowane, anulowane albo wygasło; GET /seeks/{id} powie które.",
            "The seek no longer waits: it was paired, cancelled or expired; GET /seeks/{id} says which.",
        ),
        say=_t(
            "Hledání soupeře už skončilo.",
            "Szukanie przeciwnika już się zakończyło.",
            "The search for an opponent has ended.",
        ),
    ),
    "seek-not-found": ProblemType(
        404,
        "Unknown seek",
        _t(
            "Hledání s tímto id na serveru není, nebo patří jinému hráči.",
            "Na serwerze nie ma szukania o tym id albo należy do innego gracza.",
            "No seek with this id is on this server, or it is another player's.",
        ),
        say=_t(
            "Takové hledání soupeře neexistuje.",
            "Nie ma takiego szukania przeciwnika.",
            "No such search for an opponent.",
        ),
    ),
    "entropy-refused": ProblemType(
        409,
        "The seat's entropy comes too late",
        _t(
            "Entropii dává místo jednou a jen než se hra rozdá; "
            "tato hra už rozdaná je, nebo místo entropii dalo.",
            "Entropię miejsce daje raz i tylko przed rozdaniem; "
            "ta gra jest już rozdana albo miejsce ją dało.",
            "A seat gives its entropy once, before the game is dealt; this game is dealt already, or "
            "the seat gave some.",
        ),
        say=_t(
            "Náhoda tohoto místa už je dána.",
            "Losowość tego miejsca jest już ustalona.",
            "This seat's randomness is set already.",
        ),
    ),
    "undo-refused": ProblemType(
        409,
        "Nothing to take back",
        _t(
            "Vzít zpět jde jen vlastní tahy tohoto kola, dokud nikdo jiný netáhl a nic nového se "
            "neodkrylo (tažená karta, náhoda, nové kolo). `reason` říká proč: `not_to_move` (nejste "
            "na tahu), `nothing` (v tomto kole jste ještě netáhli), `other_seat` (mezitím táhl někdo "
            "jiný), `revealed` (váš poslední tah něco odkryl a platí).",
            "Cofnąć można tylko własne ruchy tej tury, dopóki nikt inny nie zagrał i nic nowego się "
            "nie odkryło (dobrana karta, losowanie, nowa tura). `reason` mówi dlaczego: `not_to_move` "
            "(nie twój ruch), `nothing` (w tej turze jeszcze nie zagrałeś), `other_seat` (w międzyczasie "
            "zagrał ktoś inny), `revealed` (twój ostatni ruch coś odkrył i jest ostateczny).",
            "A seat takes back only its own moves of this turn, before anyone else moves and before "
            "anything new comes to light (a card drawn, a random draw, a new turn). `reason` says why: "
            "`not_to_move` (not your turn), `nothing` (no move of yours this turn yet), `other_seat` "
            "(another seat has moved since), `revealed` (your last move brought something to light and "
            "is final).",
        ),
        ("reason",),
    ),
    "refused-webhook-url": ProblemType(
        422,
        "Refused webhook URL",
        _t(
            "Webhook musí být http(s) na veřejnou adresu; soukromé adresy a loopback server odmítá.",
            "Webhook musi być http(s) na adres publiczny; adresy prywatne i loopback są odrzucane.",
            "A webhook must be http(s) to a public address; private and loopback addresses are refused.",
        ),
        say=_t("Tato adresa je odmítnuta.", "Ten adres jest odrzucony.", "That address is refused."),
    ),
    "refused-push-endpoint": ProblemType(
        422,
        "Refused push endpoint",
        _t(
            "Adresa push služby musí být http(s) na veřejnou adresu, stejně jako webhook; soukromé "
            "adresy a loopback server odmítá (pokud je provozovatel nepovolí v KOTLIK_WEBHOOK_ALLOW).",
            "Adres usługi push musi być http(s) na adres publiczny, jak webhook; adresy prywatne i "
            "loopback są odrzucane (chyba że operator dopuści je w KOTLIK_WEBHOOK_ALLOW).",
            "A push endpoint must be http(s) to a public address, as a webhook must; private and "
            "loopback addresses are refused (unless the operator allows them in KOTLIK_WEBHOOK_ALLOW).",
        ),
    ),
    "bad-push-subscription": ProblemType(
        422,
        "Malformed push subscription",
        _t(
            "Klíče odběru nejsou, co prohlížeč dává: keys.p256dh je veřejný klíč P-256 (65 bajtů) "
            "a keys.auth 16 bajtů, obojí v base64url. Pošlete PushSubscription.toJSON() beze změny.",
            "Klucze subskrypcji nie są tym, co daje przeglądarka: keys.p256dh to klucz publiczny P-256 "
            "(65 bajtów), a keys.auth 16 bajtów, oba w base64url. "
            "Wyślij PushSubscription.toJSON() bez zmian.",
            "The subscription's keys are not what a browser gives: keys.p256dh is a P-256 public key "
            "(65 bytes) and keys.auth 16 bytes, both base64url. Send PushSubscription.toJSON() as it is.",
        ),
    ),
    "unknown-rules-version": ProblemType(
        503,
        "Rules version not on this server",
        _t(
            "Hra se hraje podle pravidel, která tento server nemá; jiný server je mít může. Zkuste znovu.",
            "Gra toczy się według zasad, których ten serwer nie ma; inny serwer może je mieć. Spróbuj znowu.",
            "The game is played by rules this server does not ship; another server may. Retry.",
        ),
        say=_t(
            "Tento server teď neumí verzi pravidel této hry.",
            "Ten serwer nie obsługuje teraz wersji zasad tej gry.",
            "This server cannot play this game's rules version now.",
        ),
    ),
    "malformed-export": ProblemType(
        400,
        "Not a whole Kotlík export",
        _t(
            "Soubor není celý export Kotlíku: není to JSON nebo je useknutý.",
            "Plik nie jest całym eksportem Kotlíka: to nie JSON albo jest ucięty.",
            "The file is not a whole Kotlík export: not JSON, or cut short.",
        ),
        say=_t(
            "Soubor není celý export hry.",
            "Plik nie jest pełnym eksportem gry.",
            "The file is not a whole game export.",
        ),
    ),
    "game-exists": ProblemType(
        409,
        "The game exists already",
        _t(
            "Hra s tímto id už na serveru je.",
            "Gra o tym id jest już na serwerze.",
            "A game with this id is on this server already.",
        ),
        say=_t(
            "Tato hra už na serveru je.",
            "Ta gra jest już na serwerze.",
            "This game is on this server already.",
        ),
    ),
    "not-importable": ProblemType(
        422,
        "This server cannot hold that game",
        _t(
            "Server nemá tento druh hry nebo verzi jejích pravidel.",
            "Serwer nie ma tego rodzaju gry albo wersji jej zasad.",
            "This server does not have that kind of game, or that version of its rules.",
        ),
        say=_t(
            "Tuto hru tento server neumí.",
            "Ten serwer nie obsługuje tej gry.",
            "This server cannot host this game.",
        ),
    ),
    "export-does-not-verify": ProblemType(
        422,
        "The export does not verify",
        _t(
            "Záznam v exportu neplyne z osiva a pravidel; `problems` říká proč.",
            "Zapis w eksporcie nie wynika z ziarna i zasad; `problems` mówi dlaczego.",
            "The export's log does not follow from its seed and rules; `problems` says why.",
        ),
        ("problems",),
        say=_t(
            "Záznam v exportu neodpovídá pravidlům.",
            "Zapis w eksporcie nie zgadza się z zasadami.",
            "The export's log does not follow the rules.",
        ),
    ),
    "export-signature-refused": ProblemType(
        422,
        "The export's signature is refused",
        _t(
            "Podpis exportu nesedí (soubor byl po podpisu změněn nebo ho podepsal jiný klíč, než "
            "uvádí jeho hlavička), nebo server vyžaduje podpis klíčem, kterému věří, a soubor ho "
            "nemá. Nic se nezapsalo.",
            "Podpis eksportu się nie zgadza (plik zmieniono po podpisaniu albo podpisał go inny klucz, "
            "niż podaje jego nagłówek), albo serwer wymaga podpisu zaufanym kluczem, a plik go nie "
            "ma. Nic nie zapisano.",
            "The export's signature does not match (the file was changed after signing, or signed by "
            "another key than its header names), or this server requires a signature by a key it "
            "trusts and the file has none. Nothing was written.",
        ),
    ),
    "import-refused": ProblemType(
        422,
        "Import refused",
        _t(
            "Import nelze přijmout (například hra neskončila).",
            "Importu nie można przyjąć (na przykład gra się nie skończyła).",
            "The import cannot be taken (the game is not finished, for one).",
        ),
        say=_t("Tuto hru nelze nahrát.", "Tej gry nie można wczytać.", "This game cannot be imported."),
    ),
    "rate-limited": ProblemType(
        429,
        "Too Many Requests",
        _t(
            "Příliš mnoho požadavků; Retry-After říká, za kolik sekund zkusit znovu; `limit` jmenuje limit.",
            "Zbyt wiele żądań; Retry-After mówi, po ilu sekundach spróbować znowu; `limit` to limit.",
            "Too many requests; Retry-After says in how many seconds to retry. `limit` names the limit.",
        ),
        ("limit",),
        say=_t(
            "Příliš mnoho požadavků; chvíli počkej.",
            "Zbyt wiele żądań; poczekaj chwilę.",
            "Too many requests; wait a moment.",
        ),
    ),
    "unavailable": ProblemType(
        503,
        "Service Unavailable",
        _t(
            "Databáze teď neodpovídá; nic se nezapsalo. Zkuste znovu po Retry-After sekundách.",
            "Baza danych teraz nie odpowiada; nic nie zapisano. Spróbuj znowu po Retry-After sekundach.",
            "The database cannot be reached now; nothing was written. Retry after Retry-After seconds.",
        ),
        say=_t(
            "Server je zaneprázdněn; zkus to za chvíli.",
            "Serwer jest zajęty; spróbuj za chwilę.",
            "The server is busy; try again shortly.",
        ),
    ),
    "not-migrated": ProblemType(
        503,
        "Service Unavailable",
        _t(
            "Schéma databáze není schéma tohoto serveru; správce spustí kotlik migrate.",
            "Schemat bazy nie jest schematem tego serwera; administrator uruchomi kotlik migrate.",
            "The database's schema is not this server's; its operator runs kotlik migrate.",
        ),
        say=_t(
            "Server se aktualizuje; zkus to za chvíli.",
            "Serwer jest aktualizowany; spróbuj za chwilę.",
            "The server is being upgraded; try again shortly.",
        ),
    ),
    "not-ready": ProblemType(
        503,
        "Not ready",
        _t(
            "Server ještě není připraven (databáze, schéma nebo broker); `checks` říká co.",
            "Serwer nie jest jeszcze gotowy (baza, schemat lub broker); `checks` mówi co.",
            "The server is not ready (database, schema or broker); `checks` says which.",
        ),
        ("checks",),
        say=_t(
            "Server ještě není připraven; zkus to za chvíli.",
            "Serwer nie jest jeszcze gotowy; spróbuj za chwilę.",
            "The server is not ready yet; try again shortly.",
        ),
    ),
}
