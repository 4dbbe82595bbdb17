/** The `continuity` toolset (Tulimoa): set_goal, checkpoint, get_pending — surviving compaction and disconnects. */
import { checkpointInput, getPendingInput, setGoalInput } from '../../app/continuity.js';
import { defined } from '../../core/defined.js';
import { addTool, isoMinute, type Toolset } from './toolset.js';

/** The continuity toolset. */
export const toolset: Toolset = {
  name: 'continuity',
  summary: 'set_goal, checkpoint, get_pending: the active goal and resume plan survive compaction',
  guide:
    'Set the one active goal with set_goal when the task is clear, save a checkpoint (the plan to resume from) before ' +
    'long or risky steps, and call get_pending after a compaction or reconnect to get the goal, plan and missed events back.',
  tools: ['set_goal', 'checkpoint', 'get_pending'],
  register(server, { memory, session }) {
    addTool(server, {
      name: 'set_goal',
      title: 'Set the goal',
      description: 'Make `goal` the one active goal (it replaces the previous one and is shown again after a compaction), or pass `done: true` to close the active goal.',
      input: {
        goal: setGoalInput.shape.goal.describe('the goal, one or two sentences'),
        done: setGoalInput.shape.done.describe('true closes the active goal'),
      },
      hints: { readOnly: false, idempotent: true },
      async run(args) {
        const r = await memory.setGoal({ ...defined(args), session });
        if (r.kind === 'none') return { text: 'There is no active goal to close.', data: { ...r } };
        if (r.kind === 'done') return { text: `Goal done: ${r.goal.text}`, data: { ...r } };
        return { text: `Active goal: ${r.goal.text}${r.replaced ? ` (replaces: ${r.replaced.text})` : ''}`, data: { ...r } };
      },
    });
    addTool(server, {
      name: 'checkpoint',
      title: 'Checkpoint',
      description: 'Save the plan to resume from: what is done, what is next, which files or ids matter. The newest checkpoint comes back with get_pending and in the session-start context.',
      input: { plan: checkpointInput.shape.plan.describe('done / next / key facts, in a few lines') },
      hints: { readOnly: false, idempotent: false },
      async run(args) {
        const c = await memory.checkpoint({ ...args, session });
        return { text: `Checkpoint ${c.id} saved${c.goalId ? ` for goal ${c.goalId}` : ''}.`, data: { checkpoint: c } };
      },
    });
    addTool(server, {
      name: 'get_pending',
      title: 'Get pending',
      description: 'After a compaction or reconnect: the active goal, the newest checkpoint and the events you missed (each event is handed out once).',
      input: { limit: getPendingInput.shape.limit.describe('most events, default 20') },
      hints: { readOnly: false, idempotent: false },
      async run(args) {
        const p = await memory.getPending({ ...args, session });
        const lines = [
          p.goal ? `Goal: ${p.goal.text}` : 'No active goal.',
          p.checkpoint ? `Checkpoint (${isoMinute(p.checkpoint.createdAt)}): ${p.checkpoint.plan}` : 'No checkpoint.',
          ...(p.events.length === 0 ? ['No missed events.'] : p.events.map((e) => `- [${isoMinute(e.createdAt)}] ${e.kind}: ${JSON.stringify(e.payload)}`)),
        ];
        return { text: lines.join('\n'), data: { goal: p.goal ?? null, checkpoint: p.checkpoint ?? null, events: p.events } };
      },
    });
  },
};
