/**
 * What one perf sample of a node server was doing: the area it is charged to, the package that owns it, its leaf
 * function, the syscall of kernel samples, and the JavaScript functions on its stack (for inclusive time).
 */
import path from "node:path";
import { moduleOf, short } from "./profile-summary.ts";

/** One stack frame as `perf script` prints it (leaf first). */
export interface Frame {
  ip: bigint;
  sym: string;
  dso: string;
}

export interface Attribution {
  area: string;
  /** node_modules package or project folder of the nearest JavaScript frame, else a native category. */
  owner: string;
  /** Self time's function: the nearest JavaScript frame (builtins and runtime calls count toward it), else the kind of work. */
  fn: string;
  /** The leaf frame when it is native user-space code (builtins, V8 runtime, libc). */
  nativeLeaf?: string;
  syscall?: string;
  /** Every JavaScript function on the stack, once each. */
  jsFunctions: Set<string>;
}

interface JsFrame {
  name: string;
  url: string;
  line: number;
  column: number;
}

/** --perf-basic-prof names: `JS:<tier><name> <url>:<line>:<column>` (tier: ~ interpreted, ^ baseline, + maglev, * turbofan). */
const JS_NAME = /^(?:JS|LazyCompile|Function|Eval|Script):[~^+*]?(.*?)(?:\s+(\S+):(\d+):(\d+))?$/;

function jsFrame(frame: Frame): JsFrame | undefined {
  const match = JS_NAME.exec(frame.sym);
  if (!match) return undefined;
  return { name: match[1].trim() || "(anonymous)", url: match[2] ?? "", line: Number(match[3] ?? 0), column: Number(match[4] ?? 0) };
}

/** tsx compiles a .ts module onto few lines, so its functions need the column too. */
const jsName = (js: JsFrame) => `${js.name}  ${short(js.url)}:${js.line}${js.url.endsWith(".ts") ? `:${js.column}` : ""}`;

const AREAS: Array<[RegExp, string]> = [
  [/^@prisma\/|^prisma$|^src\/generated$/, "prisma client"],
  [/^(pg|pg-[\w-]+|postgres-[\w-]+|pgpass)$/, "pg driver"],
  [/^graphql$|^@graphql-tools\//, "graphql (graphql-js, @graphql-tools executor)"],
  [/^graphql-yoga$|^@graphql-yoga\/|^@whatwg-node\/|^@envelop\//, "yoga (+ envelop, whatwg-node)"],
  [/^@pothos\//, "pothos"],
  [/^hono$|^@hono\//, "hono"],
  [/^node:/, "node internals"],
  [/^rest-adapter\//, "app: rest-adapter"],
  [/^src\//, "app: src"],
];

const areaOfModule = (module: string) => AREAS.find(([pattern]) => pattern.test(module))?.[1] ?? `other JS: ${module}`;

const GC = new RegExp(
  "v8::internal::(Heap::|Scavenge|MarkCompact|MinorMarkCompact|MinorMS|Sweeper|ConcurrentMarking|IncrementalMarking|Marking|" +
    "Evacuat|FullEvacuator|GCTracer|MemoryReducer|ArrayBufferSweeper|PagedSpace|SemiSpace|NewSpace|LocalHeap::|Safepoint)|cppgc::|heap::base::",
);
const COMPILER = new RegExp(
  "v8::internal::(compiler::|maglev::|baseline::|Compiler::|OptimizingCompileDispatcher|Parser|PreParser|Scanner|" +
    "interpreter::Bytecode(Generator|ArrayBuilder)|Deoptimizer|DeclarationScope|BackgroundCompileTask)|^Builtins_CompileLazy",
);
const NODE_NATIVE = /^(node::|uv_|uv__|llhttp|napi_|ares_|nghttp)/;
const SYSCALL_PREFIX = /^(__x64_sys_|__ia32_sys_|__se_sys_|__do_sys_|ksys_|__sys_|do_sys_|do_)/;
const LIBC_DECORATION = /^(?:__GI_|_|libc_)+|@.*$/g;

const isKernel = (frame: Frame) => frame.dso.startsWith("[kernel") || frame.ip >= 0xffff800000000000n;

/** What the kernel part of a stack is doing: the syscall (the callee of do_syscall_64), else the kind of entry. */
function kernelWork(frames: Frame[]): string {
  const kernelDepth = frames.findIndex((f) => !isKernel(f));
  const kernelFrames = kernelDepth < 0 ? frames : frames.slice(0, kernelDepth);
  if (kernelFrames.some((f) => f.sym === "do_syscall_64")) {
    const caller = kernelDepth < 0 ? undefined : frames[kernelDepth];
    const wrapper = caller?.dso.includes("libc.so") ? caller.sym.replace(LIBC_DECORATION, "") : "";
    if (wrapper && wrapper !== "syscall" && wrapper !== "[unknown]") return wrapper;
    const entry = kernelFrames.findIndex((f) => f.sym === "do_syscall_64");
    const callee = kernelFrames[entry - 1]?.sym === "x64_sys_call" ? kernelFrames[entry - 2] : kernelFrames[entry - 1];
    return callee ? callee.sym.replace(/\..*$/, "").replace(SYSCALL_PREFIX, "") : "(syscall)";
  }
  const kernel = kernelFrames.map((f) => f.sym).join(" ");
  if (/exc_page_fault|do_page_fault/.test(kernel)) return "(page fault)";
  if (/irq|apic_timer|softirq/.test(kernel)) return "(interrupts)";
  if (/schedule|finish_task_switch/.test(kernel)) return "(scheduler)";
  return "(other kernel)";
}

function nativeName(frame: Frame): string {
  const sym = frame.sym.length > 110 ? `${frame.sym.slice(0, 107)}...` : frame.sym;
  return frame.dso.startsWith("/tmp/perf-") ? sym : `${sym}  [${path.basename(frame.dso)}]`;
}

export function attribute(frames: Frame[]): Attribution {
  const leaf = frames[0] ?? { ip: 0n, sym: "[unknown]", dso: "[unknown]" };
  const syscall = isKernel(leaf) ? kernelWork(frames) : undefined;
  const jsFunctions = new Set<string>();
  let nearest: JsFrame | undefined;
  let gc = false;
  let compiler = false;
  let nodeNative = false;
  let v8 = false;
  for (const frame of frames) {
    const js = jsFrame(frame);
    if (js) {
      nearest ??= js;
      jsFunctions.add(jsName(js));
    } else if (!nearest) {
      gc ||= GC.test(frame.sym);
      compiler ||= COMPILER.test(frame.sym);
      nodeNative ||= NODE_NATIVE.test(frame.sym);
      v8 ||= frame.sym.startsWith("v8::") || frame.sym.startsWith("Builtins_");
    }
  }
  const native = gc ? "(V8 GC)" : compiler ? "(V8 compiler)" : nodeNative ? "(node native)" : v8 ? "(V8 runtime)" : syscall ? "(kernel)" : "(native, other)";
  const owner = nearest ? moduleOf(nearest.url) : native;
  const area = syscall
    ? "kernel/syscalls"
    : gc
      ? "V8/GC"
      : compiler
        ? "V8/compiler"
        : nearest
          ? areaOfModule(owner)
          : nodeNative
            ? "node internals"
            : v8
              ? "V8/runtime"
              : "native, other";
  const fn = syscall ? `kernel: ${syscall}` : gc ? "(garbage collector)" : compiler ? "(V8 compiler)" : nearest ? jsName(nearest) : nativeName(leaf);
  const nativeLeaf = syscall || jsFrame(leaf) ? undefined : nativeName(leaf);
  return { area, owner, fn, nativeLeaf, syscall, jsFunctions };
}
