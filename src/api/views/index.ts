/**
 * GraphQL object types for each game's view (the GameView union). A game without one
 * here is served as GenericView { gameType, state }.
 */
export interface ViewType {
  gameType: string;
  typeName: string;
  sdl: string;
}

export const viewTypes: ViewType[] = [];
