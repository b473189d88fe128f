"""A TCP relay that holds every chunk for a fixed delay in each direction: PostgreSQL on loopback as if it were
across a network (a round trip of twice the delay plus the relay's own), for benchmarks that compare how many
round trips a commit waits on. Usage: python3 scripts/delay_proxy.py LISTEN_PORT TARGET_PORT DELAY_MS"""
import asyncio
import sys


async def relay(reader, writer, delay):
    loop = asyncio.get_running_loop()
    try:
        while data := await reader.read(65536):
            # Scheduled, not awaited: chunks keep their order and their spacing, as on a wire.
            loop.call_later(delay, writer.write, data)
    except ConnectionError:
        pass
    await asyncio.sleep(delay * 2)
    writer.close()


async def main(listen, target, delay):
    async def accept(reader, writer):
        target_reader, target_writer = await asyncio.open_connection("127.0.0.1", target)
        await asyncio.gather(relay(reader, target_writer, delay), relay(target_reader, writer, delay))

    server = await asyncio.start_server(accept, "127.0.0.1", listen)
    async with server:
        await server.serve_forever()


if __name__ == "__main__":
    asyncio.run(main(int(sys.argv[1]), int(sys.argv[2]), float(sys.argv[3]) / 1000))
