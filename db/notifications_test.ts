import assert from "node:assert/strict";
import {
  createNotification,
  createNotifications,
  getNotification,
  type NewNotification,
  resolveBySubject,
} from "./notifications.ts";
import { withKv } from "../tests/_kv.ts";

const offline = (subjects: string[] | null, subject: string | null = null): NewNotification => ({
  user_id: 1,
  type: "sensor_offline",
  priority: "high",
  title: "t",
  message: "m",
  subject_id: subject,
  subjects,
});

Deno.test("a notice about 1,000 subjects resolves when the last of them is released", () =>
  withKv(async (kv) => {
    const subjects = Array.from({ length: 1_000 }, (_, i) => String(i + 1));
    const [note] = await createNotifications(kv, [offline(subjects)], 1_000);
    assert.equal(note.subject_id, null);
    for (const s of subjects.slice(0, -1)) {
      assert.equal((await resolveBySubject(kv, 1, "sensor_offline", s))?.status, "active");
    }
    assert.equal((await resolveBySubject(kv, 1, "sensor_offline", "1000"))?.status, "resolved");
    assert.equal(await resolveBySubject(kv, 1, "sensor_offline", "1000"), null, "released once");
  }));

Deno.test("a notice about several subjects leaves out those already notified", () =>
  withKv(async (kv) => {
    const single = await createNotification(kv, offline(null, "5"), 1_000);
    const [group] = await createNotifications(kv, [offline(["5", "6", "7"])], 2_000);
    assert.notEqual(group.id, single.id);
    await resolveBySubject(kv, 1, "sensor_offline", "6");
    await resolveBySubject(kv, 1, "sensor_offline", "7");
    assert.equal((await getNotification(kv, 1, group.id))?.status, "resolved");
    assert.equal((await getNotification(kv, 1, single.id))?.status, "active");
    await resolveBySubject(kv, 1, "sensor_offline", "5");
    assert.equal((await getNotification(kv, 1, single.id))?.status, "resolved");
    // All of them notified already: the notice is the one that exists.
    const again = await createNotification(kv, offline(null, "8"), 3_000);
    const [same] = await createNotifications(kv, [offline(["8"])], 4_000);
    assert.equal(same.id, again.id);
  }));
