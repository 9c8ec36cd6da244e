"""A small inference service: one model on the GPU answering requests."""
import json
import time

import numpy as np
import torch
import torch.nn as nn


class Classifier(nn.Module):
    def __init__(self, n_features, n_classes):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(n_features, 512), nn.ReLU(), nn.Linear(512, n_classes))

    def forward(self, x):
        return self.body(x)


class InferenceServer:
    def __init__(self, weights_path, device="cuda"):
        self.device = torch.device(device)
        self.model = Classifier(64, 10)
        self.model.load_state_dict(torch.load(weights_path, map_location="cpu"))
        self.model.to(self.device)
        self.model.eval()
        self.mean = torch.from_numpy(np.load("mean.npy")).float()

    def preprocess(self, features):
        x = torch.tensor(features, dtype=torch.float32).to(self.device)
        return x - self.mean.to(self.device)

    def predict(self, features):
        x = self.preprocess(features)
        logits = self.model(x)
        probs = torch.softmax(logits, dim=-1)
        return probs.cpu().tolist()

    def predict_batch(self, batch):
        results = []
        for features in batch:
            results.append(self.predict(features))
        return results


def handle(server, raw):
    request = json.loads(raw)
    started = time.perf_counter()
    answer = server.predict(request["features"])
    latency_ms = (time.perf_counter() - started) * 1000
    return json.dumps({"probs": answer, "latency_ms": latency_ms})


if __name__ == "__main__":
    server = InferenceServer("model.pt")
    sample = np.random.rand(64).tolist()
    print(handle(server, json.dumps({"features": sample})))
