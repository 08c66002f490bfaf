import asyncio, logging
from tests.e2e.test_fakediscord_selftest import *
async def test_dbg(fake, client):
    fake.invalidate_sessions()
    await fake.drop_connections()
    await asyncio.sleep(2)
    print("received", [g["op"] for g in fake.gateway_received])
    print("queries", fake.gateway_queries)
    print(fake.identify_count, fake.resume_count, fake.current_session.connected)
