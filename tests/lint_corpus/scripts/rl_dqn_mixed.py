"""DQN on CartPole: the host needs the action every step, but other syncs are avoidable."""
import random
from collections import deque

import gymnasium as gym
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
env = gym.make("CartPole-v1")
q_net = nn.Sequential(nn.Linear(4, 128), nn.ReLU(), nn.Linear(128, 2)).to(device)
target_net = nn.Sequential(nn.Linear(4, 128), nn.ReLU(), nn.Linear(128, 2)).to(device)
target_net.load_state_dict(q_net.state_dict())
optimizer = torch.optim.Adam(q_net.parameters(), lr=1e-3)
replay = deque(maxlen=50_000)
gamma = 0.99

state, _ = env.reset(seed=0)
episode_return = 0.0
for step in range(100_000):
    epsilon = max(0.05, 1.0 - step / 20_000)
    if random.random() < epsilon:
        action = env.action_space.sample()
    else:
        with torch.no_grad():
            obs = torch.as_tensor(state, dtype=torch.float32, device=device)
            action = q_net(obs).argmax().item()
    next_state, reward, terminated, truncated, _ = env.step(action)
    replay.append((state, action, reward, next_state, terminated))
    state = next_state
    episode_return += reward
    if terminated or truncated:
        print(f"step {step}: return {episode_return}")
        state, _ = env.reset()
        episode_return = 0.0

    if len(replay) >= 1000:
        batch = random.sample(replay, 128)
        states, actions, rewards, next_states, dones = map(np.array, zip(*batch))
        states = torch.tensor(states, dtype=torch.float32).to(device)
        actions = torch.as_tensor(actions, device=device)
        rewards = torch.as_tensor(rewards, dtype=torch.float32, device=device)
        next_states = torch.as_tensor(next_states, dtype=torch.float32, device=device)
        dones = torch.as_tensor(dones, dtype=torch.float32, device=device)
        q = q_net(states).gather(1, actions.unsqueeze(1)).squeeze(1)
        with torch.no_grad():
            target = rewards + gamma * (1 - dones) * target_net(next_states).max(1).values
        loss = F.smooth_l1_loss(q, target)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        if step % 1000 == 0:
            target_net.load_state_dict(q_net.state_dict())
            print(f"step {step}: td loss {loss.item():.4f}")
