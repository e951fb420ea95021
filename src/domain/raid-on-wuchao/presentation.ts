/** How clients present Raid on Wuchao: the lobby's one-liner, each side's name and colour. */
import type { Presentation } from '../kernel/index.ts';
import { SIDE_NAME } from './data.ts';

export const presentation: Presentation = {
  description: "Cao Cao raids Yuan Shao's granaries at Wuchao, 200 AD: eight rounds of movement and combat on a point-to-point map.",
  seats: {
    cao: { name: SIDE_NAME.cao, colour: '#2b6cb0' },
    yuan: { name: SIDE_NAME.yuan, colour: '#c05621' },
  },
};
