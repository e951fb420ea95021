/** How clients present Chinese Warlords: the lobby's one-liner, each warlord's name and colour. */
import type { Presentation } from '../kernel/index.ts';

export const presentation: Presentation = {
  description: 'Warlords of 1920s China recruit, move by boat and vehicle, and fight over villages on a hex map.',
  seats: {
    red: { name: 'Red', colour: '#c53030' },
    blue: { name: 'Blue', colour: '#2b6cb0' },
    green: { name: 'Green', colour: '#2f855a' },
    yellow: { name: 'Yellow', colour: '#b7791f' },
  },
};
