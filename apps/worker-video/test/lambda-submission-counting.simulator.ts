import { createSimulatorServer } from '@gateway/simulators';

/** A music task's public id as MusicTaskSeed writes it into each submission (its `title`). */
const MUSIC_TASK_ID = /music_[\w-]{22}/;
const SUBMIT_PATH_PREFIX = '/lambda/submit/';
/** Submissions whose body names no music task. */
export const UNNAMED_SUBMISSION = '(no task id)';

type SimulatorServer = ReturnType<typeof createSimulatorServer>;

/**
 * The simulator in-process, counting every lambda submission it receives by the music task it names.
 * The lambda wire has no idempotency key, so a second submission of a task would be a second upstream
 * task: these counts are what a test checks for duplicates. Unlike the request journal
 * (`GET /__sim/requests`, which keeps only the last 200 requests) they miss nothing however long the
 * run. A submission is counted when it arrives, whether or not its sender stayed for the answer.
 */
export class LambdaSubmissionCountingSimulator {
  private constructor(
    readonly url: string,
    private readonly server: SimulatorServer,
    private readonly submissions: Map<string, number>,
  ) {}

  static async start(): Promise<LambdaSubmissionCountingSimulator> {
    const server = createSimulatorServer();
    const submissions = new Map<string, number>();
    // Added before listening, so it runs for the simulator's routes too; bodies are raw text there.
    server.addHook('preHandler', (request, _reply, done) => {
      if (request.method === 'POST' && request.url.startsWith(SUBMIT_PATH_PREFIX)) {
        const body = typeof request.body === 'string' ? request.body : '';
        const taskId = MUSIC_TASK_ID.exec(body)?.[0] ?? UNNAMED_SUBMISSION;
        submissions.set(taskId, (submissions.get(taskId) ?? 0) + 1);
      }
      done();
    });
    await server.listen({ host: '127.0.0.1', port: 0 });
    const address = server.server.address();
    if (typeof address !== 'object' || address === null) throw new Error('the simulator has no port');
    return new LambdaSubmissionCountingSimulator(`http://127.0.0.1:${address.port}`, server, submissions);
  }

  /** Submissions received per named task (and under UNNAMED_SUBMISSION, those naming none). */
  submissionsByTask(): ReadonlyMap<string, number> {
    return new Map(this.submissions);
  }

  submissionsOf(taskId: string): number {
    return this.submissions.get(taskId) ?? 0;
  }

  /** The simulator's own count of submissions (`byRoute['lambda:submit']`), to cross-check the hook. */
  async submitRouteCount(): Promise<number> {
    const response = await fetch(`${this.url}/__sim/stats`);
    const stats = (await response.json()) as { byRoute: Record<string, number> };
    return stats.byRoute['lambda:submit'] ?? 0;
  }

  close(): Promise<void> {
    return this.server.close();
  }
}
