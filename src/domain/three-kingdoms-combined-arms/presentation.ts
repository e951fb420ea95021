/** How clients present Three Kingdoms: Combined Arms: the lobby's one-liner, each faction's name and colour. */
import type { Presentation } from '../kernel/index.ts';
import { FACTIONS } from './data.ts';

export const presentation: Presentation = {
  description: 'Two to four kingdoms manoeuvre generals, cavalry, archers and rockets on a 12x12 board of cities, forests and mountains.',
  seats: {
    wei: { name: FACTIONS.wei, colour: '#2b6cb0' },
    shu: { name: FACTIONS.shu, colour: '#2f855a' },
    wu: { name: FACTIONS.wu, colour: '#c53030' },
    jin: { name: FACTIONS.jin, colour: '#6b46c1' },
  },
};
