// The type of /js/words.js, which the server writes from the catalogues
// (src/cardtable/locale, routes/info.py): for the client's type check only
// (`make jscheck`); browsers never load this file.

/** The client's words per language code: WORDS.uk["navLobby"] is "Лобі"; a plural
 *  message is the list of its forms, in the order of the language's plural categories. */
export const WORDS: Record<string, Record<string, string | string[]>>;
