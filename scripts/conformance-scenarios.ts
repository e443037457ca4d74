// Which @modelcontextprotocol/conformance server scenarios apply to trove, at which protocol revision,
// and why the others are skipped. A scenario in both revisions runs once on each wire.

export type Spec = '2025-11-25' | '2026-07-28';

export interface ScenarioRun {
  scenario: string;
  spec: Spec;
}

export const RUNS: readonly ScenarioRun[] = [
  { scenario: 'server-initialize', spec: '2025-11-25' },
  { scenario: 'ping', spec: '2025-11-25' },
  { scenario: 'tools-list', spec: '2025-11-25' },
  { scenario: 'dns-rebinding-protection', spec: '2025-11-25' },
  { scenario: 'server-stateless', spec: '2026-07-28' },
  { scenario: 'tools-list', spec: '2026-07-28' },
  { scenario: 'dns-rebinding-protection', spec: '2026-07-28' },
  { scenario: 'http-header-validation', spec: '2026-07-28' },
  { scenario: 'caching', spec: '2026-07-28' },
  { scenario: 'input-required-result-unsupported-methods', spec: '2026-07-28' },
  { scenario: 'resources-list', spec: '2025-11-25' },
  { scenario: 'resources-list', spec: '2026-07-28' },
  { scenario: 'sep-2164-resource-not-found', spec: '2026-07-28' },
];

const FIXTURE = "needs the suite's own fixture tool";

/**
 * Single checks of applicable scenarios that cannot apply to trove, as `<scenario>:<check-id>`. They go to
 * the suite's --expected-failures baseline, which also fails the run when one of them starts passing.
 */
export const EXCUSED: Readonly<Record<string, string>> = {
  'server-stateless:sep-2575-server-rejects-undeclared-capability': `${FIXTURE} test_missing_capability; trove's tools need no client capability`,
  'server-stateless:sep-2575-missing-capability-http-400': `${FIXTURE} test_missing_capability`,
  'server-stateless:sep-2575-http-server-no-independent-requests-on-stream': `${FIXTURE} test_streaming_elicitation; trove never elicits`,
  'server-stateless:sep-2575-server-no-log-without-loglevel': `${FIXTURE} test_logging_tool; trove sends no log notifications`,
  'caching:sep-2549-prompts-list-caching-hints': 'trove has no prompts: prompts/list is -32601 and the prompts capability is not declared',
};

/** Scenarios that do not apply to trove, grouped by the reason. */
export const SKIPPED: ReadonlyArray<{ reason: string; scenarios: readonly string[] }> = [
  {
    reason: "drive the suite's own fixture tools (test_simple_text, json_schema_2020_12_tool, ...); trove's tools are search, get_preview, get_history, and trove never samples, elicits, logs or reports progress",
    scenarios: [
      'tools-call-simple-text', 'tools-call-image', 'tools-call-audio', 'tools-call-embedded-resource', 'tools-call-mixed-content',
      'tools-call-with-logging', 'tools-call-error', 'tools-call-with-progress', 'tools-call-sampling', 'tools-call-elicitation',
      'json-schema-2020-12', 'elicitation-sep1034-defaults', 'elicitation-sep1330-enums',
    ],
  },
  {
    reason: "SEP-2322 input-required results through the suite's fixture tools; trove's tools never ask the client for input",
    scenarios: [
      'input-required-result-basic-elicitation', 'input-required-result-basic-sampling', 'input-required-result-basic-list-roots',
      'input-required-result-request-state', 'input-required-result-multiple-input-requests', 'input-required-result-multi-round',
      'input-required-result-missing-input-response', 'input-required-result-non-tool-request', 'input-required-result-result-type',
      'input-required-result-tampered-state', 'input-required-result-capability-check', 'input-required-result-ignore-extra-params',
      'input-required-result-validate-input',
    ],
  },
  {
    reason: "read the suite's own fixture resources (test://static-text, test://template/{id}/data); trove's are trove:// templates, and resource subscriptions are not exposed (seed 004)",
    scenarios: ['resources-read-text', 'resources-read-binary', 'resources-templates-read', 'resources-subscribe', 'resources-unsubscribe'],
  },
  {
    reason: 'trove serves no prompts (not exposed, seed 004) and so no completions',
    scenarios: ['prompts-list', 'prompts-get-simple', 'prompts-get-with-args', 'prompts-get-embedded-resource', 'prompts-get-with-image', 'completion-complete'],
  },
  { reason: 'trove does not declare the logging capability', scenarios: ['logging-set-level'] },
  {
    reason: 'need MCP sessions (MCP-Session-Id, session-bound SSE streams); trove serves stateless HTTP with JSON answers',
    scenarios: ['server-session-lifecycle', 'server-sse-polling', 'server-sse-multiple-streams'],
  },
  { reason: 'needs a tool with x-mcp-header parameter annotations; trove has none (pending in the suite)', scenarios: ['http-custom-header-server-validation'] },
  { reason: 'skills extension; trove serves no skills', scenarios: ['sep-2640-skills-directory', 'sep-2640-skills-enumeration', 'sep-2640-skills-manifest'] },
  {
    reason: 'protocol-tasks extension, never scored; trove exposes no protocol tasks (seed 004)',
    scenarios: [
      'tasks-lifecycle', 'tasks-capability-negotiation', 'tasks-wire-fields', 'tasks-request-state-removal', 'tasks-mrtr-input',
      'tasks-request-headers', 'tasks-dispatch-and-envelope', 'tasks-status-notifications', 'tasks-required-task-error',
      'tasks-mrtr-composition',
    ],
  },
];
