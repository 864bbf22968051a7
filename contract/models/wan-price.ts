/**
 * Wan 2.1's price in credits by clip length, the registry's (wan.ts prices by it), in a file of its own so the credit
 * packs can say what a basic video costs without bringing the whole entry into every page that shows a pack.
 */
export const WAN_COST: Readonly<Record<number, number>> = { 5: 8, 10: 16 };
