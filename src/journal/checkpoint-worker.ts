import { parentPort, workerData } from "node:worker_threads";
import { nodeDisk } from "./disk.ts";
import { foldCheckpoint, type FoldJob } from "./checkpointer.ts";

// A thread of its own: the fold reads, folds and writes without holding up an answer or a write.
parentPort!.postMessage(foldCheckpoint(workerData as FoldJob, nodeDisk));
