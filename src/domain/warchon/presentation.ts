/** How clients present Warchon: the lobby's one-liner, each army's name and colour. */
import type { Presentation } from '../kernel/index.ts';

export const presentation: Presentation = {
  description: 'Two fantasy armies with hidden set-up fight across seven spreads; battles are decided by secretly chosen numbers.',
  seats: {
    azuthkan: { name: 'Azuthkan', colour: '#9b2c2c' },
    celestine: { name: 'Celestine', colour: '#2c5282' },
  },
};
