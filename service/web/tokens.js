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
