/** Every BullMQ queue of the system. A worker app consumes the queues of its modality. */
export const QUEUE_NAMES = {
  /** Settlements the gateway could not write inline; worker-text retries them until they land. */
  textSettlement: 'text-settlement',
  /** Periodic upkeep of text calls: the hold reaper. */
  textMaintenance: 'text-maintenance',
  /** Periodic upkeep of task rows: worker-text deletes finished ones and clears their requests. */
  taskRetention: 'task-retention',
  imageTasks: 'image-tasks',
  /** Periodic upkeep of images: worker-image removes the stored files whose retention has ended. */
  imageMaintenance: 'image-maintenance',
  videoTasks: 'video-tasks',
  /** The batch poll cycles of music tasks (worker-video): one upstream fetch per channel per cycle. */
  musicPolls: 'music-polls',
  assetTasks: 'asset-tasks',
} as const;

export type QueueName = (typeof QUEUE_NAMES)[keyof typeof QUEUE_NAMES];
