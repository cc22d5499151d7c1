// The type of /js/glossary.js, which the server writes from cardtable/glossary.py
// (routes/info.py): for the client's type check only (`make jscheck`); browsers never
// load this file.

/** The games' words per language code: GLOSSARY.uk["pile"] is "стопка". */
export const GLOSSARY: Record<string, Record<string, string>>;
