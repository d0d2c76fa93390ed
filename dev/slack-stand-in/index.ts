// Parley's local Slack stand-in: a Web API server, a workspace model, file hosting, fault injection and a driver that
// sends signed events and interactions into the real Bolt receiver. See server.ts for where to start.
export {
  startSlackSandbox,
  type NewSandboxTeam,
  type SandboxTeam,
  type SlackSandbox,
  type SlackSandboxOptions,
} from './server.js';
export { signedInAs, SIGNED_IN_COOKIE, type SandboxInstallation } from './oauth.js';
export {
  SlackDriver,
  sign,
  type ClickTarget,
  type DriverResponse,
  type MessageTarget,
  type SignedRequest,
  type SubmitResult,
  type SubmitValues,
  type TamperOptions,
} from './driver.js';
export { Faults, type Fault, type FaultScope } from './faults.js';
export {
  SlackModel,
  compareTs,
  createMessage,
  type SandboxCall,
  type SandboxChannel,
  type SandboxEphemeral,
  type SandboxFile,
  type SandboxMessage,
  type SandboxUser,
  type SandboxView,
} from './model.js';
export { createFile, type NewFile } from './files.js';
export { renderThread, threadJson, type TranscriptMessage, type TranscriptOptions } from './transcript.js';
export { checkCallLog, callProblems, formatProblems, type CallLogLine, type CallLogProblem } from './call-log.js';
export { implementedMethods } from './web-api.js';
