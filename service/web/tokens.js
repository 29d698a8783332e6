// Seat tokens this browser holds: {gameId: {seat, token}} in localStorage. A token arrives in an
// invite link's fragment, is stored, and the fragment is rewritten without it.
const KEY = "kotlik.seats";

export function all() {
  try {
    return JSON.parse(localStorage.getItem(KEY) || "{}");
  } catch {
    return {};
  }
}

export function get(gameId) {
  return all()[gameId] || null;
}

export function put(gameId, seat, token) {
  const seats = all();
  seats[gameId] = { seat, token };
  localStorage.setItem(KEY, JSON.stringify(seats));
}

// The player key this browser holds (issue 10): it plays the player's seats in every game and
// lists them with "your turn" across games. Shown once by the server, so kept here.
const PLAYER = "kotlik.player";

export function playerKey() {
  return localStorage.getItem(PLAYER);
}

export function setPlayerKey(key) {
  if (key) localStorage.setItem(PLAYER, key);
  else localStorage.removeItem(PLAYER);
}
