import { workspaceName } from "../store/repositories/workspaces.ts";
import type { Db } from "../store/schema.ts";
import { currentUsage, type UsageCounters, windowEnds } from "./quotas.ts";

export type WorkspaceUsage = {
  name: string;
  usage: UsageCounters;
  windows: { minuteResetsAt: string; hourResetsAt: string };
};

/**
 * What `GET /api/v2/builders/usage` reports besides the plan's limits: the workspace's name, what it has
 * spent in the current windows, and when those windows end on the database clock.
 */
export async function workspaceUsage(db: Db, workspaceId: string): Promise<WorkspaceUsage> {
  const [name, usage, windows] = await Promise.all([
    workspaceName(db, workspaceId),
    currentUsage(db, workspaceId),
    windowEnds(db),
  ]);
  return { name, usage, windows };
}
