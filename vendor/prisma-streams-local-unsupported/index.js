throw new Error("@prisma/streams-local is not installed: `prisma dev` is not supported by Marketplace Gateway (it needs Node >= 22).");
