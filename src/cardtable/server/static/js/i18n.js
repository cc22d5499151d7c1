// Words of the interface in English and Ukrainian, and how cards are written in each.
// The language is remembered in localStorage; <html lang> follows it.
// The games' own words (piles, the lobby, suits, moves, bot levels) come from the one
// glossary the terminal and the messages read too (cardtable/glossary.py, served as
// /js/glossary.js); a text names one as {@term}, or {@^term} to start with a capital.

import { GLOSSARY } from "./glossary.js";

const WORDS = {
  en: {
    appTitle: "cardtable",
    navLobby: "Lobby",
    navHistory: "History",
    navRules: "Rules",
    language: "Language",
    skip: "Skip to the table",
    loading: "Loading…",
    // -- "play now": the queue of a game, rating and clock (seek.js)
    seekTitle: "Play now",
    seekHelp: "Wait for other players of the same game and clock: the server seats you together at a new table. Spy vs Spy gathers everyone who comes within 10 s of the second player.",
    seekPlay: "Play now",
    seekAs: "You play as {name}.",
    seekNoClock: "no clock",
    seekWaiting: "Looking for players…",
    seekWaitingN: ["Looking for players… {n} waiting.", "Looking for players… {n} waiting."],
    seekStarting: ["{n} player; the game starts in {s} s.", "{n} players; the game starts in {s} s."],
    seekBotsIn: "If nobody comes, you can play against bots in {s} s.",
    seekBotsOffer: "Nobody yet: you can play against bots now.",
    seekBots: "Play against bots now",
    seekCancelled: "You left the queue.",
    seekGone: "Your place in the queue has expired. Press “Play now” again.",
    seekRefused: "Cannot wait for a game: {detail}",
    seekList: "Players looking for a game",
    seekNone: "Nobody is waiting now.",
    seekJoin: "Play",
    // lobby
    openTables: "Open tables",
    noTables: "No open tables. Create one below.",
    createTable: "Create a table",
    game: "Game",
    candidate: "Candidate",
    spy: "Spy vs Spy",
    seats: "Seats",
    seat: "Seat {n}",
    seatPerson: "Person",
    seatBot: "Bot",
    level: "Level",
    easy: "easy",
    medium: "medium",
    hard: "hard",
    players: "Players",
    decks: "Decks",
    deals: "Deals",
    rounds: "Rounds",
    bonus: "Bonus",
    fullDecks: "A full deck each (two players)",
    countPoints: "Count cards left in the points pile",
    timeControl: "Time control",
    noClock: "No clock",
    initial: "Minutes each",
    increment: "Seconds added per move",
    rated: "Rated",
    create: "Create",
    yourName: "Your name",
    invites: "Invites",
    inviteFor: "Invite for seat {n}",
    copyLink: "Copy link",
    copied: "Copied",
    takeSeat: "Take seat {n}",
    join: "Join",
    watch: "Watch",
    joinByLink: "Join a table",
    inviteLink: "Link or code",
    status_waiting: "waiting for players",
    status_playing: "playing",
    status_finished: "finished",
    open: "open",
    history: "Finished games",
    noHistory: "No finished games yet.",
    replay: "Replay",
    record: "Record (JSON)",
    winners: "Winners",
    totals: "Totals",
    refresh: "Refresh",
    // table
    tableOf: "{game} table {id}",
    youAre: "You are {name} (seat {n})",
    spectator: "You are watching",
    toMove: "{name} to {decision}",
    yourTurn: "Your turn: {decision}",
    decision_deal: "deal",
    decision_lobby: "turn a lobby card",
    decision_play: "play or pass",
    decision_draw: "draw",
    dealOf: "Deal {k} of {n}",
    roundOf: "Round {k} of {n}",
    hand: "Your hand",
    handOf: "{name}'s hand",
    cards: ["{n} card", "{n} cards"],
    piles: "{@^piles}",
    pileOf: ["{suit} {@pile}, {n} card", "{suit} {@pile}, {n} cards"],
    lobby: "{@^lobby}",
    lobbyEmpty: "empty",
    shape_run: "{@run}",
    shape_set: "{@set}",
    captures: "Captures",
    score: "Score {n}",
    total: "Total {n}",
    discards: "Discards",
    play: "Play",
    pass: "Pass",
    clear: "{@clear}",
    hint: "Hint",
    hintIs: "Hint: {move}",
    noHint: "No move to suggest now.",
    chooseDeal: "Choose the pile to deal from",
    chooseLobby: "Choose the pile for the new lobby card",
    chooseDraw: "Choose the pile to draw from",
    selected: "Selected: {cards}",
    dealOver: "Deal {k} is over",
    roundOver: "Round {k} is over",
    dealCaptures: "Captures of deal {k}",
    nextDealIn: "The next deal starts in {s} s",
    nextRoundIn: "The next round starts in {s} s",
    starting: "Starting…",
    ready: "Ready",
    waitingOthers: "Waiting for the others…",
    readyAre: "Ready: {names}",
    scored: "Scored",
    matchOver: "The match is over",
    pausedLine: "A short break: the game goes on soon",
    close: "Close",
    won: "{names} won",
    draw: "A draw",
    rematch: "Rematch",
    toLobby: "Back to the lobby",
    connected: "connected",
    away: "away",
    botFor: "bot plays for now",
    clock: "Clock",
    you: "you",
    // spy
    points: "Points",
    pointsPile: "{@^points_pile}",
    waste: "{@^waste}",
    deck: "Racing deck",
    pile: "{@^pile} {n}",
    newPile: "New {@pile}",
    turn: "Turn",
    call: "Call «finished»",
    resign: "Resign",
    raceTime: "Race time",
    movesMade: ["{n} move", "{n} moves"],
    blocked: "blocked",
    called: "called «finished»",
    resigned: "resigned",
    empty: "empty",
    cardsLeft: "{n} left",
    shortcuts: "Keys: P points card, W waste card, 1–6 place on a pile, N new pile, Space turn, C call, Esc cancel.",
    chosen: "Chosen: {what}",
    roundScores: "Round scores",
    finisher: "{name} called first",
    noFinisher: "Nobody finished",
    others: "Other players",
    // replay
    replayOf: "Replay of {id}",
    move: "Move {k} of {n}",
    start: "Start",
    prev: "Back",
    next: "Forward",
    end: "End",
    moveBy: "{name}: {move}",
    dealStart: "The deal",
    // rules
    rulesOf: "Rules",
    // errors
    err_network: "The server cannot be reached.",
    err_lost: "Connection lost. Reconnecting in {s} s…",
    err_reconnected: "Reconnected.",
    err_stale: "The table moved on before your move arrived; here is the current state. Please decide again.",
    err_illegal: "That move is not allowed: {detail}",
    err_not_your_turn: "It is not your turn.",
    err_bad_token: "This seat's key is not valid here.",
    err_finished: "The game is over.",
    err_not_started: "The game has not started yet.",
    err_bad_version: "Your table was out of date; it has been refreshed.",
    err_paused: "A short break before the next deal or round: the game goes on in {s} s.",
    err_storage: "The server could not save the move; nothing happened. Refreshing.",
    err_rate_limited: "Too many actions at once; slow down a little.",
    err_no_table: "This table does not exist (any more).",
    err_generic: "The server refused: {detail}",
    err_join: "Could not take the seat: {detail}",
    err_create: "Could not create the table: {detail}",
    // play: move list, clocks, sound, feedback (plural entries: one/other; uk one/few/many)
    moveList: "Moves",
    noMoves: "No moves yet.",
    mv_deal: "{name} deals from the {suit} pile",
    mv_lobby: "{name} turns a card from the {suit} pile onto the lobby",
    mv_lobbyCard: "{name} turns {card} from the {suit} pile onto the lobby",
    mv_play: "{name} plays {cards}",
    mv_pass: "{name} passes",
    mv_draw: "{name} draws from the {suit} pile",
    mv_drawCard: "{name} draws {card} from the {suit} pile",
    mv_took: ["{name} takes {cards}: {n} point", "{name} takes {cards}: {n} points"],
    mv_discarded: "Nobody played on {card}: it is discarded",
    mv_dealEnded: "The deal is over: {scores}",
    mv_turn: "{name} turns over {card}",
    mv_turnBare: "{name} turns over the next card",
    mv_place: "{name} puts {card} from the {source} on pile {pile}",
    mv_placeBare: "{name} puts the {source} card on pile {pile}",
    mv_open: "{name} opens a new pile with {card} from the {source}",
    mv_openBare: "{name} opens a new pile from the {source}",
    mv_call: "{name} calls «finished»",
    mv_resign: "{name} resigns the round",
    mv_roundEnded: "Round {k} is over: {scores}",
    src_points: "points pile",
    src_waste: "waste",
    by_clock: "time ran out, the computer moved",
    by_substitute: "the computer played for the absent player",
    dealHeading: "Deal {k}",
    roundHeading: "Round {k}",
    sound: "Sound",
    soundOn: "Sound on",
    soundOff: "Sound off",
    clockOutMine: "Your time ran out, so the computer made your move: {move}. Your clock now has {s} s; whenever it runs out, the computer moves for you again, and each of your own moves adds {inc} s.",
    clockOutMineNoInc: "Your time ran out, so the computer made your move: {move}. Your clock now has {s} s; whenever it runs out, the computer moves for you again.",
    clockOutOther: "{name}'s time ran out: the computer made their move.",
    youOffline: "you are offline",
    cannotPlay: "{card} cannot be played: {why}",
    notYourTurnCard: "{card} cannot be played now: it is not your turn.",
    waitContinue: "The next deal starts when everyone has continued: waiting for {names}.",
    continueDeal: "Continue",
    pausedHolds: "Between deals: read the summary, then continue",
    lastMove: "Last move: {move}",
    raceAt: "at {time}",
    // -- Spy race: the start count, the pause's account, keys by position, hint
    raceStartsIn: "Round {k}: everyone starts together",
    raceGo: "Go!",
    raceTook: "The race took {time}.",
    raceTimeAll: "Race time, all rounds",
    endedCalled: "{name} called «finished» first",
    ended_blocked: "Nobody could move any more: the round was blocked and nobody wins it",
    ended_resigned: "Everyone left the round: nobody wins it",
    err_counting: "Wait for the count: everyone starts together.",
    keysAre: "Keys:",
    keyPoints: "points card",
    keyWaste: "waste card",
    keyPiles: "place on a pile",
    keyNewPile: "new pile",
    keySpace: "Space",
    keyTurn: "turn",
    keyCall: "call «finished»",
    keyHint: "hint",
    keyCancel: "cancel",
    // lobby codes, invites on the waiting page, the next game, missing pages
    codeHelp: "Paste an invite link, or a code: an invite code (to take its seat) or a table's id (to watch it).",
    err_bad_link: "That link does not lead to a table of this server.",
    err_code: "Cannot join: {detail}.",
    yourTable: "Your table",
    gameOptions: "Options of the game",
    err_bad_code: "“{code}” is neither a link nor a code: a code is a table's id or an invite code, made of letters, digits, - and _.",
    waitingSeats: "Waiting for players (seats still open: {n}).",
    inviteHeading: "Invite players",
    inviteHelp: "Send each person the link of their seat. The game starts when every seat is taken.",
    share: "Share",
    shareTitle: "A seat at my {game} table",
    shareText: "Take seat {n} at my {game} table on cardtable:",
    copyFailed: "Could not copy: select the link and copy it by hand.",
    newGame: "New game, same seats",
    newGameHelp: "The same people and bots (bots keep their levels); everyone at this table is offered it.",
    startNew: "Start the new game",
    cancel: "Cancel",
    nextReady: "A new game with the same seats is ready.",
    nextBy: "{name} started a new game with the same seats: {game}.",
    nextIs: "A new game with the same seats: {game}.",
    joinNext: "Take your seat in the new game",
    goNext: "Go to the new game",
    watchNext: "Watch the new game",
    notFound: "Page not found",
    notFoundText: "There is no page at {path}. The link may be mistyped.",
    noTable: "No such table",
    noTableText: "There is no table {id}: the link may be mistyped, or the table was never made.",
    gameOverText: "This game is over; its replay shows every move.",
    // accounts and profiles (account.js)
    signUp: "Sign up",
    signIn: "Sign in",
    signOut: "Sign out",
    signUpHelp: "An account keeps your name yours and lets you play rated games. Guests play unrated games under any name.",
    userName: "User name",
    password: "Password",
    passwordHelp: "At least 8 characters.",
    haveAccount: "Have an account? Sign in",
    noAccount: "No account yet? Sign up",
    signedInAs: "Signed in as {name}",
    account: "Account",
    profile: "Profile",
    changePassword: "Change the password",
    currentPassword: "Current password",
    newPassword: "New password",
    passwordChanged: "Password changed. Your other sessions were signed out.",
    deleteAccount: "Delete the account",
    deleteHelp: "Deletes your account, ratings and their history. Finished games keep their records.",
    deleteSure: "Yes, delete it for good",
    accountDeleted: "The account is deleted.",
    memberSince: "Playing since {date}",
    ratings: "Ratings",
    noRatings: "No rated games yet.",
    winLoss: "{wins} won · {losses} lost · {draws} drawn",
    ratedGames: ["{n} rated game", "{n} rated games"],
    ratingChart: "Rating after each rated game of {game}",
    outcome: "Result",
    outcome_win: "won",
    outcome_loss: "lost",
    outcome_draw: "draw",
    ratedSignIn: "Rated tables are for signed-in players.",
    seatAccount: "account",
  },
  uk: {
    appTitle: "cardtable",
    navLobby: "Лобі",
    navHistory: "Історія",
    navRules: "Правила",
    language: "Мова",
    skip: "Перейти до столу",
    loading: "Завантаження…",
    // -- "play now": the queue of a game, rating and clock (seek.js)
    seekTitle: "Грати зараз",
    seekHelp: "Зачекайте на інших гравців у ту саму гру з тим самим годинником: сервер посадить вас разом за новий стіл. «Шпигун проти шпигуна» збирає всіх, хто прийде протягом 10 с після другого гравця.",
    seekPlay: "Грати зараз",
    seekAs: "Ви граєте як {name}.",
    seekNoClock: "без годинника",
    seekWaiting: "Шукаємо гравців…",
    seekWaitingN: ["Шукаємо гравців… чекає {n}.", "Шукаємо гравців… чекають {n}.", "Шукаємо гравців… чекають {n}."],
    seekStarting: ["{n} гравець; гра почнеться за {s} с.", "{n} гравці; гра почнеться за {s} с.", "{n} гравців; гра почнеться за {s} с."],
    seekBotsIn: "Якщо ніхто не прийде, за {s} с можна буде грати з ботами.",
    seekBotsOffer: "Поки нікого: можна грати з ботами вже зараз.",
    seekBots: "Грати з ботами зараз",
    seekCancelled: "Ви вийшли з черги.",
    seekGone: "Ваше місце в черзі застаріло. Натисніть «Грати зараз» ще раз.",
    seekRefused: "Не вдалося стати в чергу: {detail}",
    seekList: "Гравці, що шукають гру",
    seekNone: "Зараз ніхто не чекає.",
    seekJoin: "Грати",
    openTables: "Відкриті столи",
    noTables: "Відкритих столів немає. Створіть стіл нижче.",
    createTable: "Створити стіл",
    game: "Гра",
    candidate: "Кандидат",
    spy: "Шпигун проти шпигуна",
    seats: "Місця",
    seat: "Місце {n}",
    seatPerson: "Людина",
    seatBot: "Бот",
    level: "Рівень",
    easy: "легкий",
    medium: "середній",
    hard: "складний",
    players: "Гравці",
    decks: "Колоди",
    deals: "Роздачі",
    rounds: "Раунди",
    bonus: "Бонус",
    fullDecks: "Кожному повна колода (двоє гравців)",
    countPoints: "Додавати карти, що лишилися в {@points_pile.loc}",
    timeControl: "Контроль часу",
    noClock: "Без годинника",
    initial: "Хвилин кожному",
    increment: "Секунд за хід",
    rated: "Рейтингова",
    create: "Створити",
    yourName: "Ваше ім'я",
    invites: "Запрошення",
    inviteFor: "Запрошення на місце {n}",
    copyLink: "Копіювати посилання",
    copied: "Скопійовано",
    takeSeat: "Сісти на місце {n}",
    join: "Приєднатися",
    watch: "Дивитися",
    joinByLink: "Приєднатися до столу",
    inviteLink: "Посилання або код",
    status_waiting: "чекає на гравців",
    status_playing: "триває гра",
    status_finished: "завершено",
    open: "вільне",
    history: "Завершені ігри",
    noHistory: "Завершених ігор ще немає.",
    replay: "Перегляд",
    record: "Запис (JSON)",
    winners: "Переможці",
    totals: "Підсумки",
    refresh: "Оновити",
    tableOf: "Стіл «{game}» {id}",
    youAre: "Ви — {name} (місце {n})",
    spectator: "Ви глядач",
    toMove: "{name}: {decision}",
    yourTurn: "Ваш хід: {decision}",
    decision_deal: "роздати",
    decision_lobby: "відкрити карту лобі",
    decision_play: "зіграти або пасувати",
    decision_draw: "добрати",
    dealOf: "Роздача {k} з {n}",
    roundOf: "Раунд {k} з {n}",
    hand: "Ваші карти",
    handOf: "Карти гравця {name}",
    cards: ["{n} карта", "{n} карти", "{n} карт"],
    piles: "{@^piles}",
    pileOf: ["{@^pile} {suit}, {n} карта", "{@^pile} {suit}, {n} карти", "{@^pile} {suit}, {n} карт"],
    lobby: "{@^lobby}",
    lobbyEmpty: "порожнє",
    shape_run: "{@run}",
    shape_set: "{@set}",
    captures: "Взятки",
    score: "Очки {n}",
    total: "Разом {n}",
    discards: "Скинуті",
    play: "Зіграти",
    pass: "Пас",
    clear: "{@clear}",
    hint: "Підказка",
    hintIs: "Підказка: {move}",
    noHint: "Зараз нема чого підказати.",
    chooseDeal: "Оберіть {@pile.acc}, з якої роздавати",
    chooseLobby: "Оберіть {@pile.acc} для нової карти {@lobby}",
    chooseDraw: "Оберіть {@pile.acc}, з якої добрати",
    selected: "Вибрано: {cards}",
    dealOver: "Роздачу {k} завершено",
    roundOver: "Раунд {k} завершено",
    dealCaptures: "Взятки роздачі {k}",
    nextDealIn: "Наступна роздача через {s} с",
    nextRoundIn: "Наступний раунд через {s} с",
    starting: "Починаємо…",
    ready: "Продовжити",
    waitingOthers: "Чекаємо на інших…",
    readyAre: "Готові: {names}",
    scored: "Набрано",
    matchOver: "Матч завершено",
    pausedLine: "Коротка перерва: гра скоро продовжиться",
    close: "Закрити",
    won: "Переміг: {names}",
    draw: "Нічия",
    rematch: "Реванш",
    toLobby: "Повернутися до лобі",
    connected: "на зв'язку",
    away: "відійшов",
    botFor: "поки грає бот",
    clock: "Годинник",
    you: "ви",
    points: "Очки",
    pointsPile: "{@^points_pile}",
    waste: "{@^waste}",
    deck: "Колода",
    pile: "{@^pile} {n}",
    newPile: "Нова {@pile}",
    turn: "Перевернути",
    call: "Оголосити «{@called}»",
    resign: "Здатися",
    raceTime: "Час гонки",
    movesMade: ["{n} хід", "{n} ходи", "{n} ходів"],
    blocked: "заблоковано",
    called: "оголосив «{@called}»",
    resigned: "здався",
    empty: "порожньо",
    cardsLeft: "лишилось {n}",
    shortcuts: "Клавіші: P карта очок, W карта відбою, 1–6 покласти на {@pile.acc}, N нова {@pile}, пробіл перевернути, C оголосити «{@called}», Esc скасувати.",
    chosen: "Обрано: {what}",
    roundScores: "Очки раундів",
    finisher: "{name} першим оголосив «{@called}»",
    noFinisher: "Ніхто не закінчив",
    others: "Інші гравці",
    replayOf: "Перегляд гри {id}",
    move: "Хід {k} з {n}",
    start: "Початок",
    prev: "Назад",
    next: "Вперед",
    end: "Кінець",
    moveBy: "{name}: {move}",
    dealStart: "Роздача",
    rulesOf: "Правила",
    err_network: "Сервер недоступний.",
    err_lost: "Зв'язок втрачено. Повторне з'єднання за {s} с…",
    err_reconnected: "З'єднання відновлено.",
    err_stale: "Стіл змінився, поки ваш хід був у дорозі; ось поточний стан. Вирішіть ще раз.",
    err_illegal: "Такий хід не дозволено: {detail}",
    err_not_your_turn: "Зараз не ваш хід.",
    err_bad_token: "Ключ цього місця тут не дійсний.",
    err_finished: "Гру завершено.",
    err_not_started: "Гра ще не почалася.",
    err_bad_version: "Ваш стіл застарів; його оновлено.",
    err_paused: "Коротка перерва перед наступною роздачею чи раундом: гра продовжиться через {s} с.",
    err_storage: "Сервер не зміг зберегти хід; нічого не сталося. Оновлюємо.",
    err_rate_limited: "Забагато дій одразу; трохи повільніше.",
    err_no_table: "Такого столу немає (вже немає).",
    err_generic: "Сервер відмовив: {detail}",
    err_join: "Не вдалося сісти: {detail}",
    err_create: "Не вдалося створити стіл: {detail}",
    // гра: список ходів, годинники, звук, відгук (множина: 1 / 2–4 / 5+)
    moveList: "Ходи",
    noMoves: "Ходів ще немає.",
    mv_deal: "{name} роздає зі стопки {suit}",
    mv_lobby: "{name} відкриває в лобі карту зі стопки {suit}",
    mv_lobbyCard: "{name} відкриває в лобі {card} зі стопки {suit}",
    mv_play: "{name} грає {cards}",
    mv_pass: "{name} пасує",
    mv_draw: "{name} добирає зі стопки {suit}",
    mv_drawCard: "{name} добирає {card} зі стопки {suit}",
    mv_took: ["{name} забирає {cards}: {n} очко", "{name} забирає {cards}: {n} очки", "{name} забирає {cards}: {n} очок"],
    mv_discarded: "На {card} ніхто не зіграв: карту скинуто",
    mv_dealEnded: "Роздачу завершено: {scores}",
    mv_turn: "{name} перевертає {card}",
    mv_turnBare: "{name} перевертає наступну карту",
    mv_place: "{name} кладе {card} з {source} на стопку {pile}",
    mv_placeBare: "{name} кладе карту з {source} на стопку {pile}",
    mv_open: "{name} починає нову стопку картою {card} з {source}",
    mv_openBare: "{name} починає нову стопку з {source}",
    mv_call: "{name} оголошує «{@called}»",
    mv_resign: "{name} здається в раунді",
    mv_roundEnded: "Раунд {k} завершено: {scores}",
    src_points: "стопки очок",
    src_waste: "відбою",
    by_clock: "час вийшов, походив комп'ютер",
    by_substitute: "за відсутнього гравця зіграв комп'ютер",
    dealHeading: "Роздача {k}",
    roundHeading: "Раунд {k}",
    sound: "Звук",
    soundOn: "Звук увімкнено",
    soundOff: "Звук вимкнено",
    clockOutMine: "Ваш час вийшов, тож комп'ютер зробив хід за вас: {move}. На годиннику тепер {s} с; щоразу, коли час вийде, за вас ходитиме комп'ютер, а кожен ваш власний хід додає {inc} с.",
    clockOutMineNoInc: "Ваш час вийшов, тож комп'ютер зробив хід за вас: {move}. На годиннику тепер {s} с; щоразу, коли час вийде, за вас ходитиме комп'ютер.",
    clockOutOther: "У гравця {name} вийшов час: за нього походив комп'ютер.",
    youOffline: "ви не на зв'язку",
    cannotPlay: "{card} не можна зіграти: {why}",
    notYourTurnCard: "{card} зараз не можна зіграти: це не ваш хід.",
    waitContinue: "Наступна роздача почнеться, коли всі продовжать: чекаємо на {names}.",
    continueDeal: "Продовжити",
    pausedHolds: "Між роздачами: перегляньте підсумок і продовжуйте",
    lastMove: "Останній хід: {move}",
    raceAt: "на {time}",
    // -- Spy race: the start count, the pause's account, keys by position, hint
    raceStartsIn: "Раунд {k}: усі починають разом",
    raceGo: "Старт!",
    raceTook: "Гонка тривала {time}.",
    raceTimeAll: "Час гонки, усі раунди",
    endedCalled: "{name} першим оголосив «закінчив»",
    ended_blocked: "Ніхто більше не міг ходити: раунд заблоковано, переможця немає",
    ended_resigned: "Усі вийшли з раунду: переможця немає",
    err_counting: "Зачекайте на відлік: усі починають разом.",
    keysAre: "Клавіші:",
    keyPoints: "карта очок",
    keyWaste: "карта відбою",
    keyPiles: "покласти на стопку",
    keyNewPile: "нова стопка",
    keySpace: "Пробіл",
    keyTurn: "перевернути",
    keyCall: "оголосити «{@called}»",
    keyHint: "підказка",
    keyCancel: "скасувати",
    // коди в лобі, запрошення на сторінці очікування, наступна гра, відсутні сторінки
    codeHelp: "Вставте посилання-запрошення або код: код запрошення (щоб сісти на його місце) чи номер столу (щоб дивитися).",
    err_bad_link: "Це посилання не веде до столу на цьому сервері.",
    err_code: "Не вдалося приєднатися: {detail}.",
    yourTable: "Ваш стіл",
    gameOptions: "Параметри гри",
    err_bad_code: "«{code}» — не посилання і не код: код — це номер столу або код запрошення з латинських літер, цифр, - та _.",
    waitingSeats: "Чекаємо на гравців (вільних місць: {n}).",
    inviteHeading: "Запросіть гравців",
    inviteHelp: "Надішліть кожному посилання на його місце. Гра почнеться, щойно всі місця буде зайнято.",
    share: "Поділитися",
    shareTitle: "Місце за моїм столом «{game}»",
    shareText: "Сідай на місце {n} за моїм столом «{game}» у cardtable:",
    copyFailed: "Не вдалося скопіювати: виділіть посилання й скопіюйте його вручну.",
    newGame: "Нова гра, ті самі місця",
    newGameHelp: "Ті самі люди й боти (боти зберігають рівні); її запропонують усім за цим столом.",
    startNew: "Почати нову гру",
    cancel: "Скасувати",
    nextReady: "Нова гра з тими самими місцями готова.",
    nextBy: "{name} почав нову гру з тими самими місцями: {game}.",
    nextIs: "Нова гра з тими самими місцями: {game}.",
    joinNext: "Сісти на своє місце в новій грі",
    goNext: "До нової гри",
    watchNext: "Дивитися нову гру",
    notFound: "Сторінку не знайдено",
    notFoundText: "За адресою {path} нічого немає. Можливо, в посиланні помилка.",
    noTable: "Такого столу немає",
    noTableText: "Столу {id} немає: можливо, в посиланні помилка, або стіл так і не створили.",
    gameOverText: "Цю гру завершено; її перегляд показує кожен хід.",
    // accounts and profiles (account.js)
    signUp: "Зареєструватися",
    signIn: "Увійти",
    signOut: "Вийти",
    signUpHelp: "Обліковий запис береже ваше ім'я за вами й дає грати рейтингові ігри. Гості грають без рейтингу під будь-яким ім'ям.",
    userName: "Ім'я користувача",
    password: "Пароль",
    passwordHelp: "Щонайменше 8 символів.",
    haveAccount: "Уже маєте обліковий запис? Увійдіть",
    noAccount: "Ще немає облікового запису? Зареєструйтеся",
    signedInAs: "Ви увійшли як {name}",
    account: "Обліковий запис",
    profile: "Профіль",
    changePassword: "Змінити пароль",
    currentPassword: "Поточний пароль",
    newPassword: "Новий пароль",
    passwordChanged: "Пароль змінено. Інші ваші сеанси завершено.",
    deleteAccount: "Видалити обліковий запис",
    deleteHelp: "Видаляє ваш обліковий запис, рейтинги та їхню історію. Завершені ігри зберігають свої записи.",
    deleteSure: "Так, видалити назавжди",
    accountDeleted: "Обліковий запис видалено.",
    memberSince: "Грає з {date}",
    ratings: "Рейтинги",
    noRatings: "Рейтингових ігор ще немає.",
    winLoss: "виграно {wins} · програно {losses} · нічиїх {draws}",
    ratedGames: ["{n} рейтингова гра", "{n} рейтингові гри", "{n} рейтингових ігор"],
    ratingChart: "Рейтинг після кожної рейтингової гри «{game}»",
    outcome: "Підсумок",
    outcome_win: "виграш",
    outcome_loss: "програш",
    outcome_draw: "нічия",
    ratedSignIn: "Рейтингові столи — лише для тих, хто увійшов.",
    seatAccount: "обліковий запис",
  },
};

const RANK_UK = { J: "В", Q: "Д", K: "К", A: "Т" };
const SUIT_SYMBOL = { S: "♠", H: "♥", D: "♦", C: "♣" };

let current = localStorage.getItem("cardtable.lang") || (navigator.language || "en").slice(0, 2);
if (!(current in WORDS)) current = "en";
const listeners = new Set();

export const LANGS = ["uk", "en"];

export function lang() {
  return current;
}

export function setLang(code) {
  if (!(code in WORDS) || code === current) return;
  current = code;
  localStorage.setItem("cardtable.lang", code);
  document.documentElement.lang = code;
  for (const fn of listeners) fn(code);
}

export function onLangChange(fn) {
  listeners.add(fn);
}

/** The glossary's word for term `key` in the current language ("" when it has none). */
export function term(key) {
  return GLOSSARY[current]?.[key] ?? GLOSSARY.en?.[key] ?? "";
}

/** Which plural form of a count `n` the language uses: English one/other (0, 1);
 * Ukrainian one (1, 21, …), few (2–4, 22–24, …), many (0, 5–20, 25, …) (0, 1, 2). */
export function pluralIndex(n, code = current) {
  const count = Math.abs(Number(n));
  if (code === "uk") {
    const tens = count % 100;
    const units = count % 10;
    if (units === 1 && tens !== 11) return 0;
    if (units >= 2 && units <= 4 && !(tens >= 12 && tens <= 14)) return 1;
    return 2;
  }
  return count === 1 ? 0 : 1;
}

/** The word for `key` in the current language, with {name} placeholders and the
 * glossary's {@term} / {@^term} filled in. An entry that is a list holds plural forms,
 * chosen by `params.n`. */
export function t(key, params = {}) {
  let text = WORDS[current][key] ?? WORDS.en[key] ?? key;
  if (Array.isArray(text)) text = text[Math.min(pluralIndex(params.n ?? 0), text.length - 1)];
  return text
    .replace(/\{@(\^?)([\w.]+)\}/g, (_, cap, name) => {
      const word = term(name);
      return cap ? word.charAt(0).toUpperCase() + word.slice(1) : word;
    })
    .replace(/\{(\w+)\}/g, (_, name) => (name in params ? String(params[name]) : ""));
}

/** A seat's name as the player reads it: a bot seat by its role and level in the
 *  player's language («Бот (легкий)»), whatever name the server stored for it. */
export function seatName(seat) {
  if (seat.role === "bot" && seat.level && GLOSSARY.en[`level.${seat.level}`]) {
    return botName(seat.level);
  }
  return seat.name ? playerName(seat.name) : t("seat", { n: seat.index + 1 });
}

function botName(level) {
  return `${term("bot")} (${term(`level.${level}`)})`;
}

/** A name as a record keeps it, for the reader: the server's name of a bot seat
 *  ("Bot (easy)") in the player's language; any other name as it is. */
export function playerName(name) {
  const bot = /^Bot \((\w+)\)$/.exec(name);
  return bot && GLOSSARY.en[`level.${bot[1]}`] ? botName(bot[1]) : name;
}

/** Split record card text ("10H") into rank and suit letters. */
export function splitCard(text) {
  return { rank: text.slice(0, -1), suit: text.slice(-1) };
}

/** The rank as shown: Ukrainian letters В Д К Т for J Q K A in Ukrainian. */
export function rankText(rank) {
  return current === "uk" ? RANK_UK[rank] ?? rank : rank;
}

export function suitSymbol(suit) {
  return SUIT_SYMBOL[suit] ?? suit;
}

export function suitName(suit) {
  return term(`suit.${suit}`) || suit;
}

/** A card for the eye: "Д♠". */
export function cardText(text) {
  const { rank, suit } = splitCard(text);
  return rankText(rank) + suitSymbol(suit);
}

/** A card for the ear (screen readers): "queen of spades" / "дама пік". */
export function cardSpoken(text) {
  const { rank, suit } = splitCard(text);
  const name = term(`rank.${rank}`) || rank;
  return current === "uk" ? `${name} ${suitName(suit)}` : `${name} of ${suitName(suit)}`;
}

/** A move in record notation, with its cards written for people ("play 10♥ В♥"). */
export function moveText(move) {
  return move
    .split(" ")
    .map((word) => {
      if (/^(10|[2-9JQKA])[SHDC]$/.test(word)) return cardText(word);
      if (/^[SHDC]$/.test(word)) return suitSymbol(word);
      return current === "uk" ? term(`move.${word}`) || word : word;
    })
    .join(" ");
}

document.documentElement.lang = current;
