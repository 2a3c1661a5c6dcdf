/**
 * Set while the owner signs out on purpose. Protected pages then wait for the trip to `/` instead of
 * sending the owner to /login?redirect=… as they would for an expired session.
 */
let active = false;
export const signOutIntent = {
  start: () => void (active = true),
  end: () => void (active = false),
  get active() {
    return active;
  },
};
