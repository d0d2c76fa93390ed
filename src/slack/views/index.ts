// Every Block Kit builder Parley uses, the escaping helpers and the limits checker. Builders are pure: plain view
// models in, Slack payloads out (`{ text, blocks }` for messages, a typed View for modals and the Home tab).
export * from './agent-turn.js';
export * from './app-home.js';
export * from './blocks.js';
export * from './catalog.js';
export * from './command.js';
export * from './curveball.js';
export * from './decision.js';
export * from './escape.js';
export * from './limits.js';
export * from './loading-modal.js';
export * from './plan.js';
export * from './tables.js';
export * from './modal-state.js';
export * from './negotiate-choices.js';
export * from './po-modal.js';
export * from './po-outcome.js';
export * from './premium.js';
export * from './question.js';
export * from './reject-modal.js';
export * from './reminders.js';
export * from './review.js';
export * from './round-analysis.js';
export * from './round-message.js';
export * from './start-modal.js';
export * from './status-card.js';
export * from './notices.js';
