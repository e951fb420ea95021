/** THE MAP: square names, distances (king moves, ruling) and the 5x5 corners. */
import { BOARD_SIZE, CORNER_SIZE, CORNERS, type CornerName } from './data.ts';

const COLUMNS = 'ABCDEFGHIJKL'.slice(0, BOARD_SIZE);

/** "A1" is the south-west square, "L12" the north-east one. */
export const SQUARE_PATTERN = '^[A-L](1[0-2]|[1-9])$';

export function squareName(x: number, y: number): string {
  return `${COLUMNS[x]}${y + 1}`;
}

export function coordinates(square: string): [number, number] {
  return [COLUMNS.indexOf(square[0]!), Number(square.slice(1)) - 1];
}

export function onBoard(x: number, y: number): boolean {
  return x >= 0 && y >= 0 && x < BOARD_SIZE && y < BOARD_SIZE;
}

export function isSquare(square: string): boolean {
  return new RegExp(SQUARE_PATTERN).test(square);
}

/** Every square, row by row from A1. */
export const ALL_SQUARES: string[] = Array.from({ length: BOARD_SIZE * BOARD_SIZE }, (_, i) => squareName(i % BOARD_SIZE, Math.floor(i / BOARD_SIZE)));

/** Distance in king moves: diagonals count 1 (ruling). */
export function distance(a: string, b: string): number {
  const [ax, ay] = coordinates(a);
  const [bx, by] = coordinates(b);
  return Math.max(Math.abs(ax - bx), Math.abs(ay - by));
}

/** The up to eight squares orthogonally or diagonally next to a square (shared and frozen). */
export function neighbours(square: string): readonly string[] {
  return NEIGHBOURS.get(square) ?? around(square);
}

function around(square: string): string[] {
  const [x, y] = coordinates(square);
  const out: string[] = [];
  for (let dy = -1; dy <= 1; dy++) {
    for (let dx = -1; dx <= 1; dx++) {
      if ((dx || dy) && onBoard(x + dx, y + dy)) out.push(squareName(x + dx, y + dy));
    }
  }
  return out;
}

/** Every square's neighbours, worked out once: the movement search asks them many times a command. */
const NEIGHBOURS = new Map(ALL_SQUARES.map((square) => [square, Object.freeze(around(square))]));

const CORNER_SQUARES = Object.fromEntries(
  (Object.keys(CORNERS) as CornerName[]).map((corner) => {
    const { x0, y0 } = CORNERS[corner];
    const squares: string[] = [];
    for (let y = y0; y < y0 + CORNER_SIZE; y++) for (let x = x0; x < x0 + CORNER_SIZE; x++) squares.push(squareName(x, y));
    return [corner, squares];
  }),
) as Record<CornerName, string[]>;

/** The 25 squares of a corner, row by row. */
export function cornerSquares(corner: CornerName): string[] {
  return CORNER_SQUARES[corner];
}

/** A corner in a sentence: "south-west corner (A1–E5)", its south-west and north-east squares. */
export function cornerLabel(corner: CornerName): string {
  const squares = CORNER_SQUARES[corner];
  return `${CORNERS[corner].name} corner (${squares[0]}–${squares[squares.length - 1]})`;
}

export function cornerOf(square: string): CornerName | null {
  for (const corner of Object.keys(CORNERS) as CornerName[]) if (cornerSquares(corner).includes(square)) return corner;
  return null;
}
