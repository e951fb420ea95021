/** Set-ups shared by the browser tests and the screenshots. */

/** A small map and two tokens: a whole game is six commands (ruled by §2 Cutoff). */
export const SHORT_RAID = {
  map: { spaces: ['A1', 'B1', 'H1', 'H2'], edges: [['A1', 'B1'], ['B1', 'H1'], ['B1', 'H2'], ['H1', 'H2']] },
  tokens: [
    { id: 'cao-cao', name: 'Cao Cao', side: 'cao', attack: '1D6', reducedAttack: '1D6', defense: 4, move: 3, special: true },
    { id: 'zhang-he', name: 'Zhang He', side: 'yuan', attack: 3, reducedAttack: 2, defense: 4, move: 2 },
  ],
};
