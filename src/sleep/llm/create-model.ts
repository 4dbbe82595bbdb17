/** Builds the `Model` a descriptor names; `none` yields undefined so the night runs its deterministic steps only. */

import { TidepoolError } from '../../core/errors.js';
import type { AgentModel } from './agent-model.js';
import { AnthropicModel } from './anthropic-model.js';
import type { Model } from './model.js';
import { OpenAiModel } from './openai-model.js';
import type { ModelDescriptor } from './parse-model-spec.js';
import { SamplingModel, type SampleFn } from './sampling-model.js';

/** What only a live surface can supply: MCP sampling from the connected client, and the agent rendezvous. */
export interface ModelDeps {
  sample?: SampleFn;
  agent?: AgentModel;
}

/**
 * Creates the provider for `descriptor`. `sampling` needs `deps.sample` (a connected MCP client with the sampling
 * capability) and `agent` needs `deps.agent` (the sleep toolset's rendezvous); without them it throws
 * `invalid_input`, because that model cannot be used from here.
 */
export function createModel(descriptor: ModelDescriptor, deps: ModelDeps = {}): Model | undefined {
  switch (descriptor.kind) {
    case 'none':
      return undefined;
    case 'openai': {
      const { kind: _kind, ...options } = descriptor;
      return new OpenAiModel(options);
    }
    case 'anthropic': {
      const { kind: _kind, ...options } = descriptor;
      return new AnthropicModel(options);
    }
    case 'sampling':
      if (deps.sample === undefined) {
        throw new TidepoolError(
          'invalid_input',
          'model "sampling" needs a connected MCP client that supports sampling',
          {
            field: 'model',
          },
        );
      }
      return new SamplingModel(deps.sample);
    case 'agent':
      if (deps.agent === undefined) {
        throw new TidepoolError(
          'invalid_input',
          'model "agent" works only under `tidepool serve` with the sleep toolset',
          {
            field: 'model',
          },
        );
      }
      return deps.agent;
  }
}
