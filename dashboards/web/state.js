// What the page remembers between refreshes: the campaign picked, the campaigns table's sort, and the last
// campaigns report (the drill-down reads its row from there).
export const state = { campaign: null, sort: { key: "sent", dir: -1 }, campaigns: [] };
